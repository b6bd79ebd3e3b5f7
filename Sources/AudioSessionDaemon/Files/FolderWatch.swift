// SPDX-License-Identifier: Apache-2.0
import Glibc
import PulseAudioClient

/// Watches folders with inotify and calls `changed` on the loop thread when an entry of one is made,
/// removed, renamed or written. A folder that does not exist yet is watched through its nearest
/// existing ancestor, where only the making of the next folder on its path counts (the ancestor may be
/// a busy folder), and itself once it is made (which counts as a change).
final class FolderWatch {
    private let fd: Int32
    private let folders: [String]
    private var watch: PulseIOWatch?
    /// The watched folders by their watch descriptors; for an ancestor, the names on the paths to
    /// the missing folders below it.
    private var watched: [Int32: (path: String, awaited: Set<String>?)] = [:]
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
            guard readEvents() else { return }
            rewatch()
            self.changed()
        }
    }

    deinit {
        watch?.cancel()
        close(fd)
    }

    /// Reads every pending event; whether one counts: any in a watched folder, and in an ancestor only
    /// the making of a name it awaits. An event of a watch no longer kept (the kernel's last word on a
    /// watch the last rewatch removed) does not.
    private func readEvents() -> Bool {
        InotifyEvents.drain(fd).reduce(false) { counts, event in
            guard let entry = watched[event.watch] else { return counts }
            guard let awaited = entry.awaited else { return true }
            return counts || awaited.contains(event.name)
        }
    }

    /// Watches each folder that exists, and the nearest existing ancestor of each that does not.
    private func rewatch() {
        var existing: Set<String> = []
        var ancestors: [String: Set<String>] = [:]
        for folder in folders {
            if Self.isFolder(folder) {
                existing.insert(folder)
            } else if let (ancestor, next) = Self.nearestExistingAncestor(of: folder) {
                ancestors[ancestor, default: []].insert(next)
            }
        }
        // A folder watched for itself counts whole, also when it is the ancestor of another.
        var wanted: [String: Set<String>?] = ancestors.mapValues { $0 }
        for folder in existing { wanted[folder] = .some(nil) }
        for (descriptor, entry) in watched where wanted[entry.path] == nil {
            inotify_rm_watch(fd, descriptor)
            watched[descriptor] = nil
        }
        for (path, awaited) in wanted {
            let descriptor = inotify_add_watch(fd, path, awaited == nil ? Self.folderMask : Self.ancestorMask)
            if descriptor >= 0 { watched[descriptor] = (path, awaited) }
        }
        // A folder made between the look above and the ancestor's watch (`mkdir -p` makes a path's
        // folders one right after the other) sent its event to no watch: look again, now that the
        // watches are in place, and go down to it.
        let madeMeanwhile = wanted.contains { path, awaited in
            awaited?.contains { Self.isFolder(path + (path.hasSuffix("/") ? "" : "/") + $0) } ?? false
        }
        if madeMeanwhile { rewatch() }
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The nearest existing ancestor of `path`, and the name below it on the way to `path`.
    static func nearestExistingAncestor(of path: String) -> (String, String)? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true)
        while let last = parts.popLast() {
            let ancestor = "/" + parts.joined(separator: "/")
            if isFolder(ancestor) { return (ancestor, String(last)) }
        }
        return nil
    }
}
