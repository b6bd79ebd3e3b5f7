// SPDX-License-Identifier: Apache-2.0
import Glibc
import PulseAudioClient

/// Watches the policy folders with inotify and calls `changed` (on the loop thread) once edits have
/// settled for 200 ms, so that an editor's several writes make one reload.
final class PolicyWatcher {
    private let fd: Int32
    private var watch: PulseIOWatch?
    private let settle: PulseTimer

    init?(loop: PulseLoop, folders: [String], changed: @escaping () -> Void) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        settle = PulseTimer(loop: loop, changed)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        let watched = folders.filter { inotify_add_watch(fd, $0, mask) >= 0 }
        guard !watched.isEmpty else {
            close(fd)
            return nil
        }
        watch = PulseIOWatch(loop: loop, fd: fd, readable: true, writable: false) { [unowned self] _, _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(fd, &buffer, buffer.count) > 0 {}
            settle.arm(after: .milliseconds(200))
        }
    }

    deinit {
        watch?.cancel()
        close(fd)
    }
}
