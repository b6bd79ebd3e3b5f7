// SPDX-License-Identifier: Apache-2.0
import Glibc
import PulseAudioClient

/// Watches folders with inotify and calls `changed` on the loop thread when an entry of one is made,
/// removed, renamed or written. A folder that does not exist yet is watched through its nearest
/// existing ancestor, and itself once it is made (which counts as a change).
final class FolderWatch {
    private let fd: Int32
    private let folders: [String]
    private var watch: PulseIOWatch?
    /// The watched paths by their watch descriptors.
    private var watched: [Int32: String] = [:]
    private let changed: () -> Void

    static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO)

    /// Nil when inotify is not available.
    init?(loop: PulseLoop, folders: [String], changed: @escaping () -> Void) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.folders = folders
        self.changed = changed
        rewatch()
        watch = PulseIOWatch(loop: loop, fd: fd, readable: true, writable: false) { [unowned self] _, _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(fd, &buffer, buffer.count) > 0 {}
            rewatch()
            self.changed()
        }
    }

    deinit {
        watch?.cancel()
        close(fd)
    }

    /// Watches each folder that exists, and the nearest existing ancestor of each that does not.
    private func rewatch() {
        var wanted: [String: UInt32] = [:]
        for folder in folders {
            if Self.isFolder(folder) {
                wanted[folder, default: 0] |= Self.folderMask
            } else if let ancestor = Self.nearestExistingAncestor(of: folder) {
                wanted[ancestor, default: 0] |= Self.ancestorMask
            }
        }
        for (descriptor, path) in watched where wanted[path] == nil {
            inotify_rm_watch(fd, descriptor)
            watched[descriptor] = nil
        }
        for (path, mask) in wanted {
            let descriptor = inotify_add_watch(fd, path, mask)
            if descriptor >= 0 { watched[descriptor] = path }
        }
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func nearestExistingAncestor(of path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true)
        while !parts.isEmpty {
            parts.removeLast()
            let ancestor = "/" + parts.joined(separator: "/")
            if isFolder(ancestor) { return ancestor }
        }
        return nil
    }
}
