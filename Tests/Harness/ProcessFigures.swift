// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What the kernel reports about a running process in `/proc`: its memory, the CPU time of all its
/// threads, and how often its threads were woken.
public struct ProcessFigures: Sendable {
    public let pid: Int32

    public init(pid: Int32) { self.pid = pid }

    /// Resident memory (`VmRSS`), in bytes.
    public var residentBytes: Int { statusField("VmRSS") * 1024 }

    /// CPU time of all threads (`schedstat`), in nanoseconds.
    public var cpuNanoseconds: UInt64 {
        threads.reduce(0) { total, task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return total + (text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0)
        }
    }

    /// The fields of `/proc/PID/stat` after the command's name, which is in parentheses and may hold
    /// spaces: `[0]` is the state (field 3), `[19]` the start in clock ticks since boot (field 22).
    /// Empty once the process is gone.
    public var statFields: [Substring] {
        let stat = textSoFar("/proc/\(pid)/stat")
        guard let nameEnd = stat.lastIndex(of: ")") else { return [] }
        return stat[stat.index(after: nameEnd)...].split(separator: " ")
    }

    /// What the process is doing, for a message about a wait it did not end: how long it has run, its
    /// state (R running or waiting for a core, S asleep, D waiting for the disk), its CPU time and where
    /// in the kernel it sleeps (`wchan`).
    public var activity: String {
        let fields = statFields
        guard fields.count > 19, let startTicks = Double(fields[19]) else { return "no /proc entry" }
        let uptime = Double(textSoFar("/proc/uptime").split(separator: " ").first ?? "") ?? 0
        let age = uptime - startTicks / Double(sysconf(Int32(_SC_CLK_TCK)))
        let sleepsIn = textSoFar("/proc/\(pid)/wchan")
        func seconds(_ value: Double) -> String { value.formatted(.number.precision(.fractionLength(2))) + " s" }
        return "running for \(seconds(age)), state \(fields[0]), \(seconds(Double(cpuNanoseconds) / 1e9)) on a core, "
            + "in the kernel at \(sleepsIn.isEmpty || sleepsIn == "0" ? "nothing" : sleepsIn)"
    }

    /// Voluntary and involuntary context switches of all threads: each is a wake-up.
    public var contextSwitches: Int {
        threads.reduce(0) { total, task in
            let path = "/proc/\(pid)/task/\(task)/status"
            return total + Self.field("voluntary_ctxt_switches", in: path) + Self.field("nonvoluntary_ctxt_switches", in: path)
        }
    }

    /// Waits until the process has used no CPU for `quiet`, so that it has handled everything sent to it.
    public func waitUntilQuiet(_ quiet: Duration = .milliseconds(300), timeout: Duration = .seconds(120)) {
        Self.waitUntilQuiet([self], quiet, looking: .milliseconds(20), timeout: timeout)
    }

    /// Waits until none of `processes` has used CPU for `quiet`, looking every `interval`, or until
    /// `timeout`.
    public static func waitUntilQuiet(_ processes: [ProcessFigures], _ quiet: Duration, looking interval: Duration,
                                      timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        var last = processes.map(\.cpuNanoseconds)
        var quietSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            usleep(useconds_t(interval / .microseconds(1)))
            let now = processes.map(\.cpuNanoseconds)
            if now != last {
                last = now
                quietSince = .now
            } else if ContinuousClock.now - quietSince >= quiet {
                return
            }
        }
    }

    private var threads: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    }

    private func statusField(_ name: String) -> Int { Self.field(name, in: "/proc/\(pid)/status") }

    /// The number after `name:` in a `/proc` status file.
    private static func field(_ name: String, in path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
        }
        return 0
    }
}
