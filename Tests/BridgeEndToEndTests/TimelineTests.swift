// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ServerTestTraits
import Testing

/// `audiosessionctl timeline` draws a scripted scene from the bridge's own memory and from its log
/// file: music, a navigation prompt ducking it, a call interrupting it, its headphones unplugged. The
/// SVG is checked by its structure and rendered to PNG by a real renderer (`rsvg-convert`).
@Suite("The timeline of a scene", .serialized, .threadOfItsOwn)
struct TimelineTests {
    @Test("music, a navigation prompt ducking it, a call interrupting it and headphones unplugged, as lanes, spans, causes and a route mark",
          arguments: SoundServerKind.underTest([.pulseaudio, .pipewire14, .pipewire16]))
    func scriptedScene(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        func session(of app: String) throws -> String {
            var found = ""
            try waitUntil("\(app)'s session") {
                found = daemon.records.first { $0["event"] as? String == "session.created" && $0["app"] as? String == app }?["session"] as? String ?? ""
                return !found.isEmpty
            }
            return found
        }
        func log(_ name: String) -> String { server.root + "/logs/\(name).log" }
        let headphones = try server.plug(.wiredHeadphones)
        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Music", "--property=media.role=music", "/dev/zero"],
                                 log: log("music"))
        let music = try server.reportedStream(of: "Music")
        try server.move(sinkInput: music.index, to: "headphones")
        let musicSession = try session(of: "Music")

        // A prompt that sounds: navigation ducks while its stream carries sound.
        let maps = try server.spawnDetached(try ShippedPolicyTests.pacat(named: "gnome-maps", in: server),
                                            ["--playback", "--raw", try server.writeSound([(true, 30)], name: "prompt")],
                                            log: log("gnome-maps"))
        try waitUntil("the prompt to duck the music") { try server.reportedStream(index: music.index)?.volume["front-left"] == 0x10000 / 5 }
        let mapsSession = try session(of: "gnome-maps")
        kill(maps, SIGKILL)
        try waitUntil("the music back at its volume") { try server.reportedStream(index: music.index)?.volume["front-left"] == 0x10000 }

        let call = try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Phone", "--property=media.role=phone", "/dev/zero"],
                                            log: log("phone"))
        try waitUntil("the call to interrupt the music") { try server.reportedStream(index: music.index)?.mute == true }
        let callSession = try session(of: "Phone")
        kill(call, SIGKILL)
        try waitUntil("the music back after the call") { try server.reportedStream(index: music.index)?.mute == false }

        for module in headphones { try server.unloadModule(module) }
        try waitUntil("the unplug's route change") {
            daemon.records.contains { $0["event"] as? String == "route.change" && $0["session"] as? String == musicSession
                && $0["reason"] as? String == "oldDeviceUnavailable" }
        }

        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let fromBridge = server.root + "/timeline.svg", fromLog = server.root + "/timeline-log.svg"
        for (file, extra) in [(fromBridge, [String]()), (fromLog, ["--log-file", daemon.logPath])] {
            let (status, output) = try TestProcess.run(ctl, ["timeline", "--since", "5m", "-o", file] + extra, environment: server.environment)
            #expect(status == 0, "\(output)")
        }
        for file in [fromBridge, fromLog] {
            let svg = try SVGOutline(file: file)
            #expect(Set(svg.lanes) .isSuperset(of: [musicSession, mapsSession, callSession]), "\(svg.lanes)")
            let musicSpans = svg.spans.filter { $0.lane == musicSession }
            #expect(musicSpans.contains { $0.kind == "active" })
            #expect(musicSpans.contains { $0.kind == "ducked" && $0.cause == mapsSession && $0.title.contains("20 %") }, "\(musicSpans)")
            #expect(musicSpans.contains { $0.kind == "interrupted" && $0.cause == callSession && $0.title.contains("Phone") }, "\(musicSpans)")
            #expect(svg.spans.allSatisfy { !$0.title.isEmpty }, "every span has a title")
            #expect(svg.arrows.contains { $0 == (mapsSession, musicSession) } && svg.arrows.contains { $0 == (callSession, musicSession) })
            #expect(svg.routeMarks.contains { $0.lane == musicSession && $0.reason == "oldDeviceUnavailable" && $0.title.contains("Headphones") },
                    "\(svg.routeMarks)")
            let png = file + ".png"
            let (status, output) = try TestProcess.run("rsvg-convert", [file, "-o", png], environment: server.environment)
            #expect(status == 0, "\(output)")
            let bytes = FileManager.default.contents(atPath: png) ?? Data()
            #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && bytes.count > 5000, "a PNG of \(bytes.count) bytes")
        }
        // monitor --since starts from the same history, then follows.
        let monitor = try TestProcess(ctl, ["monitor", "--since", "5m", "--format", "json"], environment: server.environment,
                                      logDirectory: server.root + "/logs")
        defer { _ = monitor.stop() }
        try waitUntil("monitor --since to print the unplug from the history") {
            monitor.output.contains("\"reason\":\"oldDeviceUnavailable\"") && monitor.output.contains("\"interrupterSession\":\"\(callSession)\"")
        }
    }
}

/// What the structural checks read from the SVG: lanes, spans, cause arrows and route marks.
struct SVGOutline {
    struct Span { var lane: String; var kind: String; var cause: String?; var title: String }
    struct Mark { var lane: String; var reason: String; var title: String }
    var lanes: [String] = []
    var spans: [Span] = []
    var arrows: [(String, String)] = []
    var routeMarks: [Mark] = []

    init() {}

    init(file: String) throws {
        let parser = XMLParser(contentsOf: URL(fileURLWithPath: file))!
        let reader = Reader()
        parser.delegate = reader
        guard parser.parse() else { throw HarnessError("\(file) is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")") }
        self = reader.outline
    }

    final class Reader: NSObject, XMLParserDelegate {
        var outline = SVGOutline()
        var lane = ""
        var stack: [String] = []
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let kind = attributes["class"] ?? ""
            if kind == "lane" {
                lane = attributes["data-session"] ?? ""
                outline.lanes.append(lane)
            } else if kind.hasPrefix("span ") {
                outline.spans.append(Span(lane: lane, kind: attributes["data-kind"] ?? "", cause: attributes["data-cause"], title: ""))
            } else if kind == "route-mark" {
                outline.routeMarks.append(Mark(lane: lane, reason: attributes["data-reason"] ?? "", title: ""))
            } else if kind == "cause-arrow" {
                outline.arrows.append((attributes["data-from"] ?? "", attributes["data-to"] ?? ""))
            }
            stack.append(kind)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            guard name == "title", let owner = stack.last else { return }
            if owner.hasPrefix("span "), !outline.spans.isEmpty { outline.spans[outline.spans.count - 1].title = text }
            if owner == "route-mark", !outline.routeMarks.isEmpty { outline.routeMarks[outline.routeMarks.count - 1].title = text }
        }
    }
}
