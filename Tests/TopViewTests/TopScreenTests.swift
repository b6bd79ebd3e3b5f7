// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TopView

/// The live view's screen: what it shows of a snapshot, and that it fits the terminal.
@Suite("The live view's screen")
struct TopScreenTests {
    static func session(_ number: Int, _ app: String, interruptedBy: [String] = [], call: String? = nil) -> [String: Any] {
        ["session": "/io/github/audiosession/Bridge1/session/\(number)", "app": app, "policy": "media-player", "category": "playback",
         "mode": "default", "active": interruptedBy.isEmpty, "interrupted": !interruptedBy.isEmpty, "interruptedBy": interruptedBy,
         "call": call as Any]
    }

    nonisolated(unsafe) static let snapshot: [String: Any] = [
        "server": "pulseaudio", "serverVersion": "16.1", "connected": true, "silentMode": false, "screenLocked": false,
        "sessions": [session(1, "Music", interruptedBy: ["/io/github/audiosession/Bridge1/session/2"]), session(2, "Phone"),
                     session(3, "Maps")],
        "streams": [
            ["stream": "sink-input/0", "app": "Music", "session": "/io/github/audiosession/Bridge1/session/1", "device": "sink/0",
             "corked": false, "mute": true, "volume": [65536, 65536], "causes": ["interruption:session/2", "ducker:session/3"],
             "duckLevel": 0.2, "sounding": NSNull()],
            ["stream": "sink-input/1", "app": "Speech", "session": NSNull(), "device": "sink/0", "corked": false, "mute": false,
             "volume": [32768], "causes": [String](), "duckLevel": NSNull(), "sounding": true],
        ],
        "devices": [["device": "sink/0", "name": "speaker", "port": ["portName": "Speaker", "portType": "Speaker"], "default": true]],
    ]

    @Test("who interrupts and ducks a session, at what level, and the stream's level and sound")
    func content() {
        let lines = TopScreen(snapshot: Self.snapshot, decisions: ["12:00:00.000 Music interrupted by Phone"], columns: 100, rows: 30,
                              colour: false).lines()
        let music = lines.first { $0.hasPrefix("session/1") } ?? ""
        #expect(music.contains("interrupted by Phone; ducked to 20 % by Maps"), "\(music)")
        let stream = lines.first { $0.hasPrefix("sink-input/0") } ?? ""
        #expect(stream.contains("muted by Phone ducked by Maps"), "\(stream)")
        #expect(lines.contains { $0.hasPrefix("sink-input/1") && $0.contains("♪50 %") })
        #expect(lines.contains { $0.contains("*speaker (Speaker)") })
        #expect(lines.last == "12:00:00.000 Music interrupted by Phone")
    }

    @Test("a session waiting for its turn shows WAITING and for whom")
    func waiting() {
        var podcasts = Self.session(4, "Podcasts")
        podcasts["active"] = false
        podcasts["activation"] = "waiting"
        podcasts["waitingFor"] = "/io/github/audiosession/Bridge1/session/2"
        var snapshot = Self.snapshot
        snapshot["sessions"] = (Self.snapshot["sessions"] as? [[String: Any]] ?? []) + [podcasts]
        let lines = TopScreen(snapshot: snapshot, decisions: [], columns: 100, rows: 30, colour: false).lines()
        let line = lines.first { $0.hasPrefix("session/4") } ?? ""
        #expect(line.contains("WAITING for Phone"), "\(line)")
        #expect(!line.contains("inactive"), "\(line)")
    }

    @Test("80×24 holds everything, many sessions fold into '… more', and colour only without NO_COLOR")
    func fits() {
        var crowded = Self.snapshot
        crowded["sessions"] = (1...40).map { Self.session($0, "App \($0)") }
        let lines = TopScreen(snapshot: crowded, decisions: (1...50).map { "decision \($0)" }, columns: 80, rows: 24, colour: false).lines()
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains { $0.hasPrefix("… ") && $0.hasSuffix(" more") })
        #expect(lines.last == "decision 50" && lines.contains("LAST DECISIONS"))
        let plain = TopScreen(snapshot: Self.snapshot, decisions: [], columns: 80, rows: 24, colour: false).lines().joined()
        let coloured = TopScreen(snapshot: Self.snapshot, decisions: [], columns: 80, rows: 24, colour: true).lines().joined()
        #expect(!plain.contains("\u{1B}[") && coloured.contains("\u{1B}[31m"))
    }

    @Test("records become decisions with their reasons; others are left out")
    func decisions() {
        #expect(TopScreen.decision(["ts": "2026-11-25T13:54:38.859Z", "event": "interruption", "app": "Music", "type": "began",
                                    "interrupter": "Phone"]) == "13:54:38.859 Music interrupted by Phone")
        #expect(TopScreen.decision(["ts": "2026-11-25T13:54:39.000Z", "event": "action", "action": "duck", "stream": "sink-input/0",
                                    "why": "ducked by session/3"]) == "13:54:39.000 duck sink-input/0: ducked by session/3")
        #expect(TopScreen.decision(["ts": "2026-11-25T13:54:39.000Z", "event": "device.added"]) == nil)
    }
}
