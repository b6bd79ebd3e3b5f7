// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Glibc
import ServerTestTraits
import Testing

/// The watch every server test case runs under: a server process that ends on its own fails the case,
/// one the test kills on purpose does not.
@Suite("A server test case and its servers' processes", .threadOfItsOwn)
struct ServerProcessWatchTests {
    /// The process a crash would take: WirePlumber on PipeWire (the Bluetooth plugin's crash of
    /// DECISIONS 137), PulseAudio itself.
    private func crashingProcess(of server: SoundServer) throws -> Int32 {
        try #require(server.kind == .pulseaudio ? server.serverPID : server.graphManagerPID)
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
                let name = kind == .pulseaudio ? "pulseaudio" : "wireplumber"
                #expect(server.endedServerProcesses == ["\(name) exited with status 137 (128 + N: signal N)"])
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
}
