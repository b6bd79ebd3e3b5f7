// SPDX-License-Identifier: Apache-2.0
import Glibc
import PulseAudioClient

/// Watches the folder of the sound server's socket with inotify and reports when the socket is made
/// again: a server that was restarted (by hand, `systemctl --user restart pipewire-pulse`, or by systemd
/// after a crash) is connected to as soon as it binds its socket, whatever the pause before it came
/// back, instead of at the next retry of a back-off. The folder itself (`$XDG_RUNTIME_DIR/pulse`) may
/// be made again too, so its parent is watched as well. Runs on the loop thread.
final class ServerSocketWatch {
    private let fd: Int32
    private var watch: PulseIOWatch?
    private let folder: String
    private let folderName: String
    private let socketName: String
    private let appeared: () -> Void

    /// Watches `socketPath`; nil when inotify or both folders cannot be watched.
    init?(loop: PulseLoop, socketPath: String, appeared: @escaping () -> Void) {
        let parts = socketPath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let last = parts.last, !last.isEmpty else { return nil }
        socketName = String(last)
        folder = parts.dropLast().joined(separator: "/")
        folderName = String(parts[parts.count - 2])
        let parent = parts.dropLast(2).joined(separator: "/")
        self.appeared = appeared
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let parentWatched = inotify_add_watch(fd, parent.isEmpty ? "/" : parent, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0
        guard watchFolder() || parentWatched else {
            close(fd)
            return nil
        }
        watch = PulseIOWatch(loop: loop, fd: fd, readable: true, writable: false) { [unowned self] _, _ in self.readEvents() }
    }

    deinit {
        watch?.cancel()
        close(fd)
    }

    /// The socket path a server address names: `unix:/path` or a plain path; for libpulse's default (nil),
    /// `PULSE_SERVER` when it names a socket, else `$XDG_RUNTIME_DIR/pulse/native`. Nil for a TCP server.
    static func socketPath(of server: String?,
                           variable: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let address = server ?? variable("PULSE_SERVER") {
            let path = address.hasPrefix("unix:") ? String(address.dropFirst(5)) : address
            return path.hasPrefix("/") ? path : nil
        }
        return variable("XDG_RUNTIME_DIR").map { $0 + "/pulse/native" }
    }

    @discardableResult
    private func watchFolder() -> Bool {
        inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) >= 0
    }

    /// Reads every pending event; the socket's name made in its folder is a server back. The folder made
    /// again is watched again (and a socket already in it counts).
    private func readEvents() {
        var socketMade = false
        for event in InotifyEvents.drain(fd) {
            if event.name == socketName { socketMade = true }
            if event.name == folderName, watchFolder(), access(folder + "/" + socketName, F_OK) == 0 { socketMade = true }
        }
        if socketMade { appeared() }
    }
}
