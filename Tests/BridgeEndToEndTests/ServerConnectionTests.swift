// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

/// The bridge's connections to the sound server carry no audio and share no memory with it: libpulse
/// 16.1 can spin forever when a connection dies while it takes up the shared ring buffer PulseAudio
/// offers to clients with shared memory (seen once in a hundred restarts of PulseAudio under the bridge).
@Suite("The bridge's server connections")
struct ServerConnectionTests {
    /// The lines of a process's memory map that are PulseAudio's shared memory pools.
    func sharedPools(of pid: Int32) -> [Substring] {
        textSoFar("/proc/\(pid)/maps").split(separator: "\n").filter { $0.contains("memfd:pulseaudio") }
    }

    @Test("the bridge maps none of the server's shared memory, where a plain pacat does")
    func noSharedMemory() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let player = try server.playDetached(app: "Music", role: "music")
        try waitUntil("the bridge to see the music stream") {
            daemon.records.contains { $0["event"] as? String == "stream.added" && $0["app"] as? String == "Music" }
        }
        #expect(!sharedPools(of: player).isEmpty, "a client with shared memory maps the server's pools")
        #expect(sharedPools(of: daemon.process.pid).isEmpty, "\(sharedPools(of: daemon.process.pid))")
    }
}
