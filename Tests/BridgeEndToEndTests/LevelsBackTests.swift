// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The user's level is always back (DESIGN §2, "Nothing is left behind"): after an interruption, a duck,
/// or a duck ended in the middle of its fade, the music player's next stream starts at the level the
/// user chose, whatever ended the cause: its deactivation, its app's disconnect, the bridge's SIGTERM or
/// its crash. The player is unmodified (`pacat` with the music role); its stream ends as the cause
/// ends, and its next one starts at once, which is when the server's memory of it is written and read.
///
/// Each path runs `AUDIOSESSION_REPEATS` times (1 by default; `make stress` sets more on PipeWire 0.3).
@Suite("The user's level is back on the player's next stream", .serialized, .threadOfItsOwn)
struct LevelsBackTests {
    enum Cause: String, CaseIterable, Sendable {
        /// A game that mixed (ambient), stopped, then came back as soloAmbient and interrupted the music.
        case interruption
        /// Navigation ducking the music, the duck's fade over.
        case duck
        /// Navigation ducking the music, ended while its fade runs.
        case fade
    }

    enum Ending: String, CaseIterable, Sendable {
        case deactivation, disconnect, sigterm, crash
    }

    static let repeats = Int(ProcessInfo.processInfo.environment["AUDIOSESSION_REPEATS"] ?? "") ?? 1
    /// The user's level of the player: not the server's default, so that a stream starting at it shows
    /// the memory kept the user's choice.
    static let userLevel: UInt32 = 0xA000

    @Test("after an interruption, a duck or a fade, ended by deactivation, disconnect, SIGTERM or a crash",
          arguments: SoundServerKind.underTest, Ending.allCases)
    func levelBack(kind: SoundServerKind, ending: Ending) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let watcher = try scenario.client()
        var player = try startPlayer(scenario)
        try scenario.userSetsVolume(player.stream, Self.userLevel, observer: watcher)
        for round in 1...Self.repeats {
            for cause in Cause.allCases {
                let what = "\(cause.rawValue) ended by \(ending.rawValue), round \(round)"
                var app: BusClient? = try scenario.client()
                let session = try begin(cause, scenario, app!, player.stream)
                switch ending {
                case .deactivation: try app!.setActive(session, false)
                case .disconnect: app = nil
                case .sigterm: #expect(scenario.daemon.terminate() == 0, "\(what): the bridge's exit status")
                case .crash:
                    scenario.daemon.kill9()
                    try scenario.daemon.restart()
                }
                // The player stops as the cause ends, and opens its next stream at once.
                _ = player.process.stop()
                player = try startPlayer(scenario)
                try scenario.waitUntil("\(what): the player's next stream at the user's level, not \(Self.levels(scenario, player.stream))") {
                    try scenario.server.reportedStream(index: player.stream.index).map(Self.atUserLevel) == true
                }
                if ending == .sigterm { try scenario.daemon.restart() }
                // The bridge has read the stream's levels as they are now, has no effect on it, and left it
                // there; it sees it playing, so that the next cause finds the player's session active.
                try scenario.waitUntil("\(what): the bridge to see the user's level") {
                    let seen = try scenario.bridgeView(of: player.stream.index, watcher)
                    return seen?["volume"] as? [Int] == [Int(Self.userLevel), Int(Self.userLevel)] && seen?["mute"] as? Bool == false
                        && seen?["effect"] as? Bool == false && seen?["corked"] as? Bool == false
                }
                let now = try #require(try scenario.server.reportedStream(index: player.stream.index))
                #expect(Self.atUserLevel(now), "\(what): \(now.volume), muted \(now.mute)")
                app = nil
            }
        }
    }

    /// What the server reports of a stream's levels, for a failure's message.
    static func levels(_ scenario: Scenario, _ stream: ReportedStream) -> String {
        guard let now = try? scenario.server.reportedStream(index: stream.index) else { return "gone" }
        let folder = scenario.server.root + "/state/wireplumber"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let state = names.sorted().map { "\($0): \((try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? "")" }.joined(separator: "; ")
        return "\(now.volume) muted \(now.mute) DEBUG \(state)"
    }

    static func atUserLevel(_ stream: ReportedStream) -> Bool {
        !stream.mute && stream.volume == ["front-left": userLevel, "front-right": userLevel]
    }

    /// Starts the player's stream and waits until the bridge has it.
    func startPlayer(_ scenario: Scenario) throws -> (process: TestProcess, stream: ReportedStream) {
        let process = try scenario.server.play(app: "Music", role: "music")
        var stream: ReportedStream?
        try scenario.waitUntil("the player's stream") {
            stream = try scenario.server.streams().compactMap(ReportedStream.init)
                .first { $0.properties["application.process.id"] == "\(process.pid)" }
            return stream != nil
        }
        return (process, stream!)
    }

    /// Starts the cause with `app`'s session and waits until it has taken hold (but for a fade, which is
    /// ended while it runs); returns the session's path.
    func begin(_ cause: Cause, _ scenario: Scenario, _ app: BusClient, _ song: ReportedStream) throws -> String {
        switch cause {
        case .interruption:
            let game = try scenario.session(app, "game", "ambient")
            try app.setActive(game.path, false)
            try app.setCategory(game.path, "soloAmbient")
            try app.setActive(game.path, true)
            try scenario.waitUntil("the game to interrupt the music") { try scenario.muted(song) == true }
            return game.path
        case .duck, .fade:
            let prompt = try scenario.session(app, "navigation", "playback", mode: "voicePrompt", options: ["duckOthers"])
            let ducked = UInt32(Double(Self.userLevel) * 0.2)
            if cause == .duck {
                try scenario.waitUntil("the prompt to duck the music") {
                    try scenario.volume(song) == ["front-left": ducked, "front-right": ducked]
                }
            }
            return prompt.path
        }
    }
}
