// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

/// The bridge's connection to PulseAudio takes up the server's shared memory, as any client does: the
/// server then takes the bridge's commands together (a call's mutes in one turn of its loop). libpulse
/// 16.1 can spin forever when a connection dies while it switches to the shared ring buffer (seen once
/// in a hundred restarts of PulseAudio under the bridge), so after a lost server the bridge reconnects
/// without it and takes it up again on a connection of its own once the server has stayed up 30 s.
@Suite("The bridge's server connections")
struct ServerConnectionTests {
    /// The lines of a process's memory map that are PulseAudio's shared memory pools.
    func sharedPools(of pid: Int32) -> [Substring] {
        textSoFar("/proc/\(pid)/maps").split(separator: "\n").filter { $0.contains("memfd:pulseaudio") }
    }

    /// The server's clients that are the bridge's connections.
    func bridgeConnections(_ server: SoundServer) throws -> Int {
        try server.pactl(["list", "clients"]).components(separatedBy: "io.github.audiosession.Bridge1").count - 1
    }

    @Test("the bridge maps the server's shared memory, as a plain pacat does")
    func sharedMemory() throws {
        let bridged = try BridgedServer(.pulseaudio)
        defer { bridged.stop() }
        let (server, daemon) = (bridged.server, bridged.daemon)
        let player = try server.playDetached(app: "Music", role: "music")
        try bridged.waitUntil("the bridge to see the music stream") {
            daemon.records("stream.added").contains { $0["app"] as? String == "Music" }
        }
        #expect(!sharedPools(of: player).isEmpty, "a client with shared memory maps the server's pools")
        #expect(!sharedPools(of: daemon.process.pid).isEmpty)
        #expect(try bridgeConnections(server) == 1)
    }

    @Test("after PulseAudio restarts, the bridge reconnects without shared memory, and calls still mute music")
    func noSharedMemoryAfterRestart() throws {
        let bridged = try BridgedServer(.pulseaudio)
        defer { bridged.stop() }
        let (server, daemon) = (bridged.server, bridged.daemon)
        try bridged.waitUntil("the bridge to connect") { try bridgeConnections(server) == 1 }
        server.killServer()
        try server.restartServer()
        try bridged.waitUntil("the bridge to be back") { daemon.records("server.reset").count == 1 }
        // The dead server's pool goes when libpulse releases the lost connection, after the callback that
        // reported the loss: the reset can reach the event log first. A pool still mapped after 5 s is a
        // leak. The connection with shared memory takes over only after the server has stayed up for 30 s
        // (the takeover itself is tested in ServerAdapterTests, with a shorter wait), so none is mapped.
        try bridged.waitUntil("the dead server's pool to be released: \(sharedPools(of: daemon.process.pid))",
                              timeout: .seconds(5)) { sharedPools(of: daemon.process.pid).isEmpty }
        _ = try server.play(app: "Music", role: "music")
        let music = try server.reportedStream(of: "Music")
        _ = try server.play(app: "Phone", role: "phone")
        try bridged.waitUntil("the call to mute the music") { try server.reportedStream(index: music.index)?.mute == true }
        #expect(try bridgeConnections(server) == 1)
        #expect(daemon.records("server.lost").count == 1)
    }
}
