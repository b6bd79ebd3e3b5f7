// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// Waiting for a turn on a real bridge and server, while a softphone (`pacat`, role `phone`, never
/// opted in) is in a call: two requests wait and are granted in order when the call's stream ends; a
/// withdrawn one is never granted; one whose owner disconnects leaves nothing behind. A waiting
/// session's stream is muted on the server; `status` and the timeline show the waiting.
@Suite("Waiting for a turn, end to end", .serialized, .threadOfItsOwn)
struct WaitingTurnEndToEndTests {
    static let request = "RequestActivation"

    @Test("two requests during a call wait and are granted in order; a withdrawn or abandoned one leaves nothing",
          arguments: SoundServerKind.underTest)
    func waitsThroughACall(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let app = try scenario.client()
        let phone = try server.play(app: "Softphone", role: "phone")
        try waitUntil("the softphone's call") {
            (try scenario.snapshot(app)["sessions"] as? [[String: Any]] ?? [])
                .contains { $0["app"] as? String == "Softphone" && $0["active"] as? Bool == true }
        }
        func ask(_ client: BusClient, _ path: String, _ options: [String] = []) throws -> [BusValue] {
            try client.call(path, BusClient.sessionInterface, Self.request, [.strings(options)])
        }

        let podcasts = try scenario.session(app, "podcasts", "playback", active: false)
        let radio = try scenario.session(app, "radio", "playback", active: false)
        let withdrawn = try scenario.session(app, "news", "playback", active: false)
        #expect(app.errorName(podcasts.path, BusClient.sessionInterface, Self.request, [.strings(["soon"])])
            == "io.github.audiosession.Error.BadParam")
        // The withdrawn request asks first: a grant of it would come first in the grants' step.
        for session in [withdrawn, podcasts, radio] { #expect(try ask(app, session.path) == [.string("waiting")]) }
        #expect(try ask(app, podcasts.path) == [.string("waiting")], "asking again while waiting")
        #expect(try app.property(podcasts.path, "ActivationState") == .string("waiting"))
        let episode = try scenario.play("podcasts", token: podcasts.token, in: podcasts.path, observer: app)
        try waitUntil("the waiting app's stream muted on the server") { try scenario.muted(episode) == true }
        try app.setActive(withdrawn.path, false)
        #expect(try app.property(withdrawn.path, "ActivationState") == .string("inactive"))

        // An owner that leaves while waiting: its session goes, and its stream is not held muted.
        var leaver: BusClient? = try scenario.client()
        let left = try scenario.session(leaver!, "leaver", "playback", active: false)
        #expect(try ask(leaver!, left.path) == [.string("waiting")])
        let leftStream = try scenario.play("leaver", token: left.token, in: left.path, observer: app)
        try waitUntil("the leaver's stream muted while it waits") { try scenario.muted(leftStream) == true }
        leaver = nil
        try waitUntil("the leaver's session gone and its stream unmuted") {
            try scenario.muted(leftStream) == false
                && !(try app.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? [])
                    .contains(.objectPath(left.path))
        }

        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let status = try TestProcess.run(ctl, ["status"], environment: server.environment)
        #expect(status.output.split(separator: "\n").contains { $0.contains("podcasts") && $0.contains("WAITING") }, "\(status.output)")

        phone.stop()
        func turns() -> [String] {
            scenario.daemon.records.filter { ($0["event"] as? String)?.hasPrefix("activation.") == true }
                .map { "\($0["app"] ?? "?") \(($0["event"] as? String ?? "?").dropFirst("activation.".count))" }
        }
        // The grants of one step are signalled and recorded in the order of the requests: the last one's
        // signal and record come after any earlier one's.
        try waitUntil("ActivationGranted for both waiting apps, and its record (\(turns()))") {
            !app.signals("ActivationGranted", from: radio.path).isEmpty && turns().last == "radio granted"
        }
        #expect(!app.signals("ActivationGranted", from: podcasts.path).isEmpty)
        #expect(turns() == ["news waiting", "podcasts waiting", "radio waiting", "news withdrawn", "leaver waiting",
                            "leaver withdrawn", "podcasts granted", "radio granted"], "\(turns())")
        #expect(app.signals("ActivationGranted", from: withdrawn.path).isEmpty)
        #expect(try app.property(radio.path, "ActivationState") == .string("active"))
        #expect(try app.property(withdrawn.path, "ActivationState") == .string("inactive"))
        // The newest activation wins: radio, granted after podcasts, interrupts it.
        try waitUntil("the podcast's stream muted by radio, not by its wait") {
            (try scenario.bridgeView(of: episode.index, app)?["causes"] as? [String]) == ["interruption:\(radio.path.split(separator: "/").suffix(2).joined(separator: "/"))"]
        }

        let svg = server.root + "/timeline.svg"
        let drawn = try TestProcess.run(ctl, ["timeline", "--since", "5m", "-o", svg], environment: server.environment)
        #expect(drawn.status == 0, "\(drawn.output)")
        let picture = (try? String(contentsOfFile: svg, encoding: .utf8)) ?? ""
        #expect(picture.contains("data-kind=\"waiting\""), "the timeline has the waiting spans")
    }
}
