// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Glibc
import ServerTestTraits
import Testing

/// The watch every server test case runs under: a server process that ends on its own fails the case,
/// one the test kills on purpose does not, and one that crashes when teardown tells it to end is a
/// warning.
@Suite("A server test case and its servers' processes", .threadOfItsOwn)
struct ServerProcessWatchTests {
    /// The process a crash would take: WirePlumber on PipeWire (the Bluetooth plugin's crash of
    /// DECISIONS 137), PulseAudio itself.
    private func crashingProcess(of server: SoundServer) throws -> Int32 {
        try #require(server.kind == .pulseaudio ? server.serverPID : server.graphManagerPID)
    }

    /// The name of that process.
    private static func crashingProcessName(_ kind: SoundServerKind) -> String {
        kind == .pulseaudio ? "pulseaudio" : "wireplumber"
    }

    @Test("a server process that ends on its own fails the case, with its name and how it ended",
          arguments: SoundServerKind.underTest)
    func processEndedOnItsOwn(kind: SoundServerKind) async throws {
        try await withKnownIssue("the process's end is the case's failure") {
            try await watchingServerProcesses {
                let server = try SoundServer(kind)
                defer { server.stop() }
                let pid = try crashingProcess(of: server)
                kill(pid, SIGKILL)
                try waitUntil("the process to end") { !server.endedServerProcesses.isEmpty }
                #expect(server.endedServerProcesses == ["\(Self.crashingProcessName(kind)) exited with status 137 (128 + N: signal N)"])
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("a server process ended on its own during the test") }
        }
    }

    @Test("a server the test kills on purpose does not fail the case", arguments: SoundServerKind.underTest)
    func processKilledOnPurpose(kind: SoundServerKind) async throws {
        try await watchingServerProcesses {
            let server = try SoundServer(kind)
            defer { server.stop() }
            if kind != .pulseaudio { try server.restartWirePlumber() }
            server.killServer()
            #expect(!server.serverIsRunning)
            #expect(server.endedServerProcesses.isEmpty)
        }
    }

    @Test("a server process that crashes when teardown tells it to end is named as that, not as a failure",
          arguments: SoundServerKind.underTest)
    func processCrashedAtTeardown(kind: SoundServerKind) throws {
        let watch = ServerProcessWatch()
        try ServerProcessWatch.$current.withValue(watch) {
            let server = try SoundServer(kind)
            defer { server.stop() }
            // strace turns the process's own exit, once told to end, into a SIGABRT: the exit_group
            // call fails and the signal is delivered instead, as a crash on the way out would be.
            let strace = try TestProcess(try TestProcess.which("strace"), [
                "-f", "-p", String(try crashingProcess(of: server)), "-o", "/dev/null",
                "-e", "trace=exit_group", "-e", "inject=exit_group:error=ENOSYS:signal=SIGABRT",
            ], environment: [:], logDirectory: server.root)
            defer { strace.stop() }
            try waitUntil("strace to hold the process") {
                guard strace.isRunning else { throw HarnessError("strace exited: \(strace.output)") }
                return strace.output.contains("attached")
            }
            server.stop()
        }
        let name = Self.crashingProcessName(kind)
        #expect(watch.endedOnTheirOwn.isEmpty)
        #expect(watch.endedBadlyAtTeardown.count == 1)
        #expect(watch.endedBadlyAtTeardown.first?.contains("\(name) exited with status 134 (128 + N: signal N)") == true,
                "\(watch.endedBadlyAtTeardown)")
    }
}
