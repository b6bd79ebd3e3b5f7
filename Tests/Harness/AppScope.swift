// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A systemd-style app unit made by hand, as GNOME Shell makes one for each app it starts: a cgroup
/// named `app-gnome-<desktop id>-<n>.scope` in the unified hierarchy (cgroup2), with the app's process
/// moved into it before it runs. No systemd is needed; `/proc/PID/cgroup` then names the unit as it
/// does on a desktop.
public struct AppScope: Sendable {
    /// The unit's name.
    public let name: String
    /// The cgroup's folder.
    public let path: String

    /// Makes the unit of an app; `launcher` is the part after `app-`, as desktops write it.
    public init(desktopID: String, launcher: String = "gnome") throws {
        let escaped = desktopID.split(separator: "-", omittingEmptySubsequences: false).joined(separator: "\\x2d")
        name = "app-\(launcher)-\(escaped)-\(getpid())\(Int.random(in: 100...999)).scope"
        let root = try Self.unifiedRoot()
        path = "\(root)/app.slice/\(name)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Starts a program inside the unit: a shell moves itself in, then becomes the program. It returns
    /// once the shell has become the program (or has ended): the process is in the unit before then,
    /// but until its `exec` it is still the shell, and a reader of its executable would find `sh`.
    public func start(_ executable: String, _ arguments: [String], environment: [String: String], logDirectory: String,
                      name: String? = nil) throws -> TestProcess {
        let program = try TestProcess.which(executable)
        let shellArguments = ["-c", "echo $$ > '\(path)/cgroup.procs' && exec \"$0\" \"$@\"", program] + arguments
        let process = try TestProcess("/bin/sh", shellArguments, environment: environment, logDirectory: logDirectory,
                                      name: name ?? URL(fileURLWithPath: executable).lastPathComponent)
        do {
            // Within its `exec` a process can show an empty command line for a moment, before its new one.
            try waitUntil("\(program) to take the place of the shell that started it in \(self.name)") {
                guard process.isRunning else { return true }
                let commandLine = Self.commandLine(of: process.pid)
                return !commandLine.isEmpty && commandLine != ["/bin/sh"] + shellArguments
            }
        } catch {
            process.kill9()
            throw error
        }
        return process
    }

    /// The arguments a process runs with, as `/proc/PID/cmdline` has them (empty once it has gone).
    static func commandLine(of pid: Int32) -> [String] {
        guard let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Removes the unit once its processes have gone (a cgroup with members cannot be removed).
    public func remove() {
        for _ in 0..<100 {
            if rmdir(path) == 0 || errno == ENOENT { return }
            usleep(20_000)
        }
    }

    /// Where the unified cgroup hierarchy is mounted (`/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` on a
    /// hybrid system).
    static func unifiedRoot() throws -> String {
        let mounts = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        for line in mounts.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            if fields.count > 4 { return String(fields[4]) }
        }
        throw HarnessError("no cgroup2 hierarchy is mounted, so no app unit can be made")
    }
}
