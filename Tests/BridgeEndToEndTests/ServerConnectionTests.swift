// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The bridge's connection to PulseAudio takes up the server's shared memory, as any client does: the
/// server then takes the bridge's commands together (a call's mutes in one turn of its loop). libpulse
/// 16.1 can spin forever when a connection dies while it switches to the shared ring buffer (seen once
/// in a hundred restarts of PulseAudio under the bridge, and at a new bridge's first connection under
/// load), so the bridge connects without it and takes it up on a connection of its own once the server
/// has stayed up 30 s (`--shared-memory-after` shortens that here).
@Suite("The bridge's server connections", .threadOfItsOwn)
struct ServerConnectionTests {
    @Test("the bridge connects without shared memory, then maps the server's shared memory as a plain pacat does")
    func sharedMemory() throws {
        // A day's wait first: the first connection is the one that shares no memory.
        let bridged = try BridgedServer(.pulseaudio, daemonArguments: ["--shared-memory-after", "86400"])
        defer { bridged.stop() }
        let (server, daemon) = (bridged.server, bridged.daemon)
        let player = try server.playDetached(app: "Music", role: "music")
        try bridged.waitUntil("the bridge to see the music stream") {
            daemon.records("stream.added").contains { $0["app"] as? String == "Music" }
        }
        #expect(!BridgeDaemon.sharedPools(of: player).isEmpty, "a client with shared memory maps the server's pools")
        #expect(BridgeDaemon.sharedPools(of: daemon.process.pid).isEmpty, "the first connection shares no memory")
        #expect(try daemon.serverConnections() == 1)
        // Then a bridge that takes it up as soon as it has read the server.
        #expect(daemon.terminate() == 0)
        try daemon.restart(arguments: ["--shared-memory-after", "0"])
        try daemon.waitUntilSharingMemory()
        _ = try server.play(app: "Phone", role: "phone")
        try bridged.waitUntil("the call to mute the music") { try server.reportedStream(of: "Music").mute == true }
        #expect(try daemon.serverConnections() == 1)
        #expect(daemon.records("server.lost").isEmpty && daemon.records("server.reset").isEmpty,
                "the takeover is no loss of the server")
    }

    @Test("after PulseAudio restarts, the bridge reconnects without shared memory, and calls still mute music")
    func noSharedMemoryAfterRestart() throws {
        let bridged = try BridgedServer(.pulseaudio)
        defer { bridged.stop() }
        let (server, daemon) = (bridged.server, bridged.daemon)
        try bridged.waitUntil("the bridge to connect") { try daemon.serverConnections() == 1 }
        server.killServer()
        try server.restartServer()
        try bridged.waitUntil("the bridge to be back") { daemon.records("server.reset").count == 1 }
        // The dead server's pool goes when libpulse releases the lost connection, after the callback that
        // reported the loss: the reset can reach the event log first. A pool still mapped after 5 s is a
        // leak. The connection with shared memory takes over only after the server has stayed up for 30 s
        // (the takeover itself is tested above and in ServerAdapterTests, with a shorter wait), so none is
        // mapped.
        try bridged.waitUntil("the dead server's pool to be released: \(BridgeDaemon.sharedPools(of: daemon.process.pid))",
                              timeout: .seconds(5)) { BridgeDaemon.sharedPools(of: daemon.process.pid).isEmpty }
        _ = try server.play(app: "Music", role: "music")
        let music = try server.reportedStream(of: "Music")
        _ = try server.play(app: "Phone", role: "phone")
        try bridged.waitUntil("the call to mute the music") { try server.reportedStream(index: music.index)?.mute == true }
        #expect(try daemon.serverConnections() == 1)
        #expect(daemon.records("server.lost").count == 1)
    }
}
