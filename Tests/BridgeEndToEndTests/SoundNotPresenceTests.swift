// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

/// Sound, not presence, on real servers: a screen reader's stream stays open between sentences, as
/// speech-dispatcher's does; the music is ducked while it speaks and has its volume back while it is
/// quiet, though the stream is still there. Assertions on the server's volumes.
@Suite("Sound, not presence, on real servers")
struct SoundNotPresenceTests {
    static let userVolume: UInt32 = 0xC000

    @Test("a screen reader's open stream ducks music only while it speaks", arguments: SoundServerKind.allCases)
    func screenReaderDucksWhileItSpeaks(kind: SoundServerKind) throws {
        let bridged = try BridgedServer(kind)
        defer { bridged.stop() }
        let server = bridged.server
        _ = try server.play(app: "Music Player", role: "music")
        let music = try server.reportedStream(of: "Music Player")
        try server.pactl(["set-sink-input-volume", "\(music.index)", "\(Self.userVolume)"])
        func musicVolume() throws -> UInt32? { try server.reportedStream(index: music.index)?.volume.values.max() }
        try bridged.waitUntil("the user's volume") { try musicVolume() == Self.userVolume }

        // Two sentences with a pause between them, then the stream stays open and quiet.
        let speech = try server.writeSound([(true, 1.5), (false, 3), (true, 1.5), (false, 8)], name: "two-sentences")
        _ = try server.play(app: "speech-dispatcher", role: "a11y", file: speech)
        let reader = try server.reportedStream(of: "speech-dispatcher")
        try bridged.waitUntil("the music ducked during the first sentence") { try musicVolume().map { $0 < Self.userVolume } == true }
        try bridged.waitUntil("the music back at the user's volume in the pause") { try musicVolume() == Self.userVolume }
        #expect(try server.reportedStream(index: reader.index) != nil, "the screen reader's stream is still open")
        try bridged.waitUntil("the music ducked again at the second sentence") { try musicVolume().map { $0 < Self.userVolume } == true }
        try bridged.waitUntil("the music back after it") { try musicVolume() == Self.userVolume }
        #expect(try server.reportedStream(index: reader.index) != nil, "the screen reader's stream is still open")
        #expect(try server.reportedStream(index: music.index)?.mute == false)
        // The bridge's own monitor of the stream is no app: no session was made for it.
        #expect(!bridged.daemon.records("session.created").contains { $0["app"] as? String == "audiosessiond" })
    }
}
