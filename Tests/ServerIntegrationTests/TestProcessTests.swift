// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

/// The harness's child processes end, whatever they do: a command that never ends is killed and
/// reported by `TestProcess.run`, and one that ignores SIGTERM is killed by `stop`.
@Suite("The harness's commands end")
struct TestProcessTests {
    @Test("a command that does not end within its limit is killed and reported, and a quick one is not")
    func commandBounded() throws {
        let environment = ProcessInfo.processInfo.environment
        #expect(try TestProcess.run("/bin/echo", ["done"], environment: environment, limit: .seconds(60)) == (0, "done\n"))
        let error = #expect(throws: HarnessError.self) {
            try TestProcess.run("/bin/sh", ["-c", "echo waiting; exec sleep 600"], environment: environment, limit: .milliseconds(300))
        }
        #expect(error?.description.contains("did not end within") == true, "\(String(describing: error))")
        #expect(error?.description.contains("waiting") == true, "\(String(describing: error))")
    }

    @Test("stop ends a process that ignores SIGTERM with SIGKILL, and one that heeds it with SIGTERM")
    func stopEnds() throws {
        let environment = ProcessInfo.processInfo.environment
        let stubborn = try TestProcess("/bin/sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"],
                                       environment: environment, logDirectory: NSTemporaryDirectory())
        let heeding = try TestProcess("/bin/sleep", ["600"], environment: environment, logDirectory: NSTemporaryDirectory())
        // A wait that fails leaves neither behind (kill9 does nothing to a process already reaped).
        defer {
            for process in [stubborn, heeding] {
                process.kill9()
                try? FileManager.default.removeItem(atPath: process.logPath)
            }
        }
        try waitUntil("the shell to ignore SIGTERM") { stubborn.output.contains("ready") }
        #expect(stubborn.stop(grace: .milliseconds(300)) == 128 + SIGKILL)
        #expect(heeding.stop() == 128 + SIGTERM)
    }
}
