// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What the bridge reads from the system about a stream's or client's process: the process and its
/// ancestors, the Flatpak app whose sandbox it runs in, the systemd unit the desktop started it in,
/// its executable and, for an interpreter, its script.
///
/// The unit and script are read only for a process the bridge can trust to be the stream's: one the
/// server vouches for (PipeWire's `pipewire.sec.pid`), or one a client declares whose executable is
/// the binary it declares too; the sandbox only for one the server vouches for. A client cannot borrow
/// another app's identity by naming its process id alone.
struct ProcessFacts {
    var pid: Int32?
    var chain: [Int32] = []
    var sandboxAppID: String?
    var unit: SystemdUnit?
    /// The file name of the process's executable.
    var executable: String?
    var script: String?

    /// The facts of the process a stream's or client's properties name (a `pipewire.sec.pid` of
    /// `relay` vouches for none; see ``ServerTranslation/processID(_:relay:)``).
    static func read(_ properties: [String: String], relay: Int32? = nil) -> ProcessFacts {
        guard let pid = ServerTranslation.processID(properties, relay: relay) else { return ProcessFacts() }
        let executable = ProcessAncestry.executableName(of: pid)
        let vouched = ServerTranslation.vouchedProcessID(properties, relay: relay) != nil
        let declared = properties["application.process.binary"]
        let trusted = vouched || (executable != nil && declared.map { Self.sameProgram($0, executable!) } ?? false)
        return read(pid: pid, executable: executable, trusted: trusted, sandboxTrusted: vouched)
    }

    /// The facts of a process; `trusted` says whether its unit and script may be read, and
    /// `sandboxTrusted` whether its sandbox may.
    static func read(pid: Int32, executable: String?, trusted: Bool, sandboxTrusted: Bool) -> ProcessFacts {
        var facts = ProcessFacts(pid: pid, chain: ProcessAncestry.chain(of: pid), executable: executable)
        if sandboxTrusted { facts.sandboxAppID = SandboxIdentity.flatpakID(ofProcess: pid) }
        guard trusted else { return facts }
        facts.unit = ProcFile.read("/proc/\(pid)/cgroup").flatMap { SystemdUnit.of(cgroupText: String(decoding: $0, as: UTF8.self)) }
        if let executable, InterpreterScript.isInterpreter(executable), let line = ProcFile.read("/proc/\(pid)/cmdline") {
            facts.script = InterpreterScript.script(arguments: InterpreterScript.arguments(ofCommandLine: line))
        }
        return facts
    }

    /// Whether a declared binary names an executable: the same name, or the kernel's command name
    /// (15 characters at most) as its start.
    static func sameProgram(_ declared: String, _ executable: String) -> Bool {
        declared == executable || (executable.count == 15 && declared.hasPrefix(executable))
    }
}

/// Reads a small file of `/proc` whole (its size is reported as 0, so it is read until its end).
enum ProcFile {
    static func read(_ path: String, limit: Int = 65_536) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
