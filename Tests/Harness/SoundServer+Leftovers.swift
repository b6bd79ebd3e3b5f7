// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Leftovers of killed test runs: every server process is written down with its start time, so that
/// a later run can end what a killed run left behind, and never a process that got its pid since.
extension SoundServer {
    /// Notes a child's pid and start time, so that a later run can end it if this test process is
    /// killed (and never a process that got the same pid since).
    func recordChild(_ pid: Int32) {
        guard let handle = FileHandle(forWritingAtPath: root + "/children.pids") ?? {
            _ = FileManager.default.createFile(atPath: root + "/children.pids", contents: nil)
            return FileHandle(forWritingAtPath: root + "/children.pids")
        }() else { return }
        handle.seekToEndOfFile()
        handle.write(Data((Self.identity(of: pid) + "\n").utf8))
        try? handle.close()
    }

    /// `pid start-time`: a process as it is written down, unique across pid reuse.
    static func identity(of pid: Int32) -> String {
        "\(pid) \(startTime(of: pid) ?? "gone")"
    }

    /// The start time (in clock ticks since boot) of a live process, from `/proc/PID/stat`.
    static func startTime(of pid: Int32) -> String? {
        let fields = ProcessFigures(pid: pid).statFields
        return fields.count > 19 ? String(fields[19]) : nil
    }

    /// The pid written as `identity(of:)` if that very process still runs.
    static func liveProcess(_ written: Substring) -> Int32? {
        let parts = written.split(separator: " ")
        guard parts.count == 2, let pid = Int32(parts[0]), startTime(of: pid) == String(parts[1]) else { return nil }
        return pid
    }

    /// Ends the processes of servers whose test process no longer exists, and removes their folders.
    static func reapLeftovers() {
        let temporary = NSTemporaryDirectory()
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for folder in folders where folder.hasPrefix("audiosession-") {
            let root = temporary + folder
            guard let owner = try? String(contentsOfFile: root + "/owner.pid", encoding: .utf8),
                liveProcess(Substring(owner.trimmingCharacters(in: .whitespacesAndNewlines))) == nil
            else { continue }
            let children = textSoFar(root + "/children.pids").split(separator: "\n").compactMap(liveProcess)
            for child in children { kill(child, SIGKILL) }
            try? FileManager.default.removeItem(atPath: root)
        }
    }
}
