// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// multiRoute on a real server: the session's stream plays on a combined sink over every output,
/// and the sink goes when the session stops being multiRoute.
@Suite("multiRoute against real servers", .serialized, .threadOfItsOwn)
struct MultiRouteEndToEndTests {
    @Test("an active multiRoute session plays to the speaker and the headphones at once", arguments: SoundServerKind.underTest)
    func playsToEveryOutput(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        _ = try scenario.server.plug(.wiredHeadphones)
        let app = try scenario.client()
        let mixer = try scenario.session(app, "mixer", "multiRoute")
        let stream = try scenario.play("mixer", token: mixer.token, in: mixer.path, observer: app)

        func combinedSinks() throws -> [[String: Any]] {
            (try scenario.server.pactlJSON(["list", "sinks"]) as? [[String: Any]] ?? [])
                .filter { ($0["name"] as? String)?.hasPrefix("audiosession_multiroute_") == true }
        }
        try waitUntil("a combined sink on the server") { try combinedSinks().count == 1 }
        let combined = try #require(try combinedSinks().first)
        let index = try #require(combined["index"] as? Int)
        try waitUntil("the stream on the combined sink") {
            try scenario.server.reportedStream(index: stream.index)?.device == UInt32(index)
        }
        // The combined sink plays into both outputs: the server shows its own streams on each.
        let modules = try scenario.server.pactlJSON(["list", "modules"]) as? [[String: Any]] ?? []
        let argument = modules.first { $0["name"] as? String == "module-combine-sink" }?["argument"] as? String ?? ""
        #expect(argument.contains("slaves=speaker,headphones") || argument.contains("slaves=headphones,speaker"))
        try waitUntil("CurrentRoute to list both outputs") {
            let route = try app.property(mixer.path, "CurrentRoute").structFields ?? []
            let outputs = route.count == 2 ? route[1].arrayItems?.compactMap { $0.stringDictionary?["portType"]?.stringValue } : nil
            return Set(outputs ?? []) == ["Speaker", "Headphones"]
        }

        // As playback, the session plays to one output: the combined sink goes, the stream is on a real one.
        try app.setCategory(mixer.path, "playback")
        try waitUntil("the combined sink removed") { try combinedSinks().isEmpty }
        let real = try [scenario.server.deviceIndex(named: "speaker"), scenario.server.deviceIndex(named: "headphones")]
        try waitUntil("the stream on the speaker or the headphones") {
            try real.contains(scenario.server.reportedStream(index: stream.index)?.device)
        }
    }

    @Test("a combined sink left by a killed bridge is removed by the next one", arguments: SoundServerKind.underTest)
    func leftoverRemoved(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        _ = try scenario.server.plug(.wiredHeadphones)
        let app = try scenario.client()
        _ = try scenario.session(app, "mixer", "multiRoute")
        func combinedSinks() throws -> Int {
            try scenario.server.pactl(["list", "short", "sinks"]).split(separator: "\n")
                .filter { $0.contains("audiosession_multiroute_") }.count
        }
        try waitUntil("a combined sink on the server") { try combinedSinks() == 1 }
        scenario.daemon.kill9()
        #expect(try combinedSinks() == 1, "left behind")
        try scenario.daemon.restart()
        try waitUntil("the left-over removed") { try combinedSinks() == 0 }
    }
}
