// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization

/// A libpulse client configuration that turns shared memory off, for connections that must not risk it.
///
/// libpulse 16.1 can spin forever when a connection dies while it switches to the shared ring buffer
/// (srbchannel) a server offers right after the handshake: `pa_pstream_unlink` loops while a switch is
/// pending and no ring buffer is active yet. Servers offer the ring buffer only to clients that use
/// shared memory, so a context made under this configuration never has one.
///
/// The configuration is a file that includes what libpulse would have read (the file named by
/// `PULSE_CLIENTCONFIG`, else the user's, else the system's, and the `.d` folder beside it) and then
/// says `enable-shm = no`. It is written once and unlinked at once; libpulse reads it while a context
/// is made, through `PULSE_CLIENTCONFIG` set for that moment.
///
/// The variable belongs to the whole process, so two rules keep that moment from reaching anyone else:
/// - one context at a time is made under it (``settingVariable``): two threads that each put back what
///   they found would leave it set for good, the second having found the first one's value;
/// - its name is `/proc/PID/fd/N` with this process's number, not `/proc/self/fd/N`: a program started
///   by another thread in that moment inherits the variable, and must then read this configuration, not
///   its own descriptor N (headless Firefox, reading a pipe there, never opened its microphone).
enum NoSharedMemoryConfiguration {
    private static let variable = "PULSE_CLIENTCONFIG"

    /// The configuration's `/proc/PID/fd/N` name, or nil when it could not be written.
    private static let path: String? = write(text())

    /// Held from setting the variable to putting it back. Tests read the variable under it.
    static let settingVariable = Mutex(())

    /// Runs `make` (which makes a context) with libpulse reading this configuration.
    static func applying<T>(_ make: () -> T) -> T {
        guard let path else { return make() }
        return settingVariable.withLock { _ in
            let previous = getenv(variable).map { String(cString: $0) }
            setenv(variable, path, 1)
            defer {
                if let previous { setenv(variable, previous, 1) } else { unsetenv(variable) }
            }
            return make()
        }
    }

    /// The configuration's text: the files libpulse would read, included, then shared memory off.
    static func text() -> String {
        var lines: [String] = []
        if let file = fileLibpulseReads() {
            lines.append(".include \(file)")
            lines += dotDFiles(of: file).map { ".include \($0)" }
        }
        lines.append("enable-shm = no")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The client configuration libpulse picks when nothing overrides it: the first that exists.
    private static func fileLibpulseReads() -> String? {
        if let named = getenv(variable) { return String(cString: named) }
        var candidates: [String] = []
        if let folder = getenv("PULSE_CONFIG_PATH") {
            candidates.append(String(cString: folder) + "/client.conf")
        } else if let home = getenv("HOME").map({ String(cString: $0) }) {
            candidates.append(home + "/.pulse/client.conf")
            let configHome = getenv("XDG_CONFIG_HOME").map { String(cString: $0) } ?? home + "/.config"
            candidates.append(configHome + "/pulse/client.conf")
        }
        candidates.append("/etc/pulse/client.conf")
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// The `.conf` files of the folder `file.d`, in name order, as libpulse reads them after `file`.
    private static func dotDFiles(of file: String) -> [String] {
        let folder = file + ".d"
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf") { names.append(name) }
        }
        return names.sorted().map { folder + "/" + $0 }
    }

    /// Writes `text` to an unlinked temporary file kept open; returns its `/proc/PID/fd/N` name.
    private static func write(_ text: String) -> String? {
        let folder = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/audiosession-client-conf-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            close(descriptor)
            return nil
        }
        return "/proc/\(getpid())/fd/\(descriptor)"
    }
}
