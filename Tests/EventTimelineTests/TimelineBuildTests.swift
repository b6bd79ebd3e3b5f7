// SPDX-License-Identifier: Apache-2.0
import EventTimeline
import Foundation
import Testing

/// Records in, lanes and spans out: what each record opens and closes, and the causes it names.
@Suite("Timeline from records")
struct TimelineBuildTests {
    static let base = Date(timeIntervalSince1970: 1_780_000_000)

    static func record(_ second: Double, _ event: String, _ session: String, _ fields: [String: Any] = [:]) -> [String: Any] {
        var record = fields
        record["ts"] = base.addingTimeInterval(second).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        record["event"] = event
        record["session"] = session
        return record
    }

    nonisolated(unsafe) static let scene: [[String: Any]] = [
        record(0, "session.created", "session/1", ["app": "Music", "policy": "media-player"]),
        record(0.1, "session.active", "session/1", ["app": "Music", "active": true, "ok": true]),
        record(1, "session.created", "session/2", ["app": "Maps", "policy": "navigation"]),
        record(1, "session.active", "session/2", ["app": "Maps", "active": true, "ok": true]),
        record(1, "action", "session/1", ["action": "duck", "stream": "sink-input/0", "causes": ["ducker:session/2"], "level": 0.2]),
        record(2, "action", "session/1", ["action": "unduck", "stream": "sink-input/0", "causes": [String]()]),
        record(2, "session.active", "session/2", ["app": "Maps", "active": false]),
        record(3, "interruption", "session/1", ["app": "Music", "type": "began", "reason": "default", "interrupter": "Phone",
                                                 "interrupterSession": "session/3"]),
        record(3, "action", "session/1", ["action": "mute", "stream": "sink-input/0", "causes": ["interruption:session/3"]]),
        record(5, "interruption", "session/1", ["app": "Music", "type": "ended", "reason": "default", "interrupter": "Phone",
                                                 "interrupterSession": "session/3", "shouldResume": true]),
        record(6, "action", "session/1", ["action": "mute", "stream": "sink-input/0", "causes": ["silent-mode"]]),
        record(7, "route.change", "session/1", ["app": "Music", "reason": "oldDeviceUnavailable",
                                                 "previousRoute": ["inputs": [Any](), "outputs": [["portName": "Headphones"]]],
                                                 "currentRoute": ["inputs": [Any](), "outputs": [["portName": "Speaker"]]]]),
        record(8, "action", "session/1", ["action": "unmute", "stream": "sink-input/0", "causes": [String]()]),
        record(9, "session.released", "session/1", ["app": "Music", "kind": "policy", "policy": "media-player"]),
    ]

    @Test("each record opens or closes its span, with the cause it names")
    func spans() throws {
        let timeline = Timeline(records: Self.scene, start: Self.base, end: Self.base.addingTimeInterval(10))
        #expect(timeline.lanes.map(\.session) == ["session/1", "session/2"])
        let music = try #require(timeline.lanes.first)
        func span(_ kind: Timeline.Kind) -> Timeline.Span? { music.spans.first { $0.kind == kind } }
        #expect(span(.active)?.start == Self.base.addingTimeInterval(0.1) && span(.active)?.end == Self.base.addingTimeInterval(9))
        #expect(span(.ducked)?.cause == "session/2" && span(.ducked)?.label == "ducked to 20 % by Maps")
        #expect(span(.ducked)?.end == Self.base.addingTimeInterval(2))
        #expect(span(.interrupted)?.cause == "session/3" && span(.interrupted)?.label == "interrupted by Phone")
        #expect(span(.interrupted)?.title.contains("ended with shouldResume") == true)
        #expect(span(.muted)?.label == "muted by the silent switch" && span(.muted)?.end == Self.base.addingTimeInterval(8))
        #expect(music.marks.first?.title.contains("previous route Headphones, now Speaker") == true)
        #expect(music.spans.allSatisfy { !$0.isOpen })
    }

    @Test("a request to wait for the turn is a waiting span caused by its blocker, closed by the grant, then active")
    func waiting() throws {
        let records = [
            Self.record(0, "session.created", "session/3", ["app": "Phone", "policy": "voip"]),
            Self.record(0, "session.active", "session/3", ["app": "Phone", "active": true, "ok": true]),
            Self.record(1, "session.created", "session/4", ["app": "Podcasts", "policy": "explicit"]),
            Self.record(1, "activation.waiting", "session/4", ["app": "Podcasts", "blocker": "session/3"]),
            Self.record(4, "session.active", "session/3", ["app": "Phone", "active": false]),
            Self.record(4, "session.active", "session/4", ["app": "Podcasts", "active": true, "ok": true]),
            Self.record(4, "activation.granted", "session/4", ["app": "Podcasts", "blocker": NSNull()]),
        ]
        let timeline = Timeline(records: records, start: Self.base, end: Self.base.addingTimeInterval(10))
        let podcasts = try #require(timeline.lanes.first { $0.session == "session/4" })
        let waiting = try #require(podcasts.spans.first { $0.kind == .waiting })
        #expect(waiting.cause == "session/3" && waiting.label == "waiting for Phone")
        #expect(waiting.start == Self.base.addingTimeInterval(1) && waiting.end == Self.base.addingTimeInterval(4))
        #expect(waiting.title.contains("granted"))
        #expect(podcasts.spans.first { $0.kind == .active }?.start == Self.base.addingTimeInterval(4))
        let svg = TimelineSVG.render(timeline)
        #expect(svg.contains("data-from=\"session/3\" data-to=\"session/4\""), "an arrow from the blocker")
    }

    @Test("a timestamp is read with or without its milliseconds")
    func timestamps() throws {
        let precise = try #require(Timeline.date("2026-11-28T05:48:33.913Z"))
        let whole = try #require(Timeline.date("2026-11-28T05:48:33Z"))
        #expect(precise.timeIntervalSince(whole) > 0.9 && precise.timeIntervalSince(whole) < 0.92)
        #expect(Timeline.date("yesterday") == nil)
    }

    @Test("a window clips spans that began before it, and fits itself to what happened")
    func windows() throws {
        let late = Timeline(records: Self.scene, start: Self.base.addingTimeInterval(4), end: Self.base.addingTimeInterval(600))
        #expect(late.lanes.map(\.session) == ["session/1"], "Maps ended before the window")
        #expect(late.lanes.first?.spans.first { $0.kind == .interrupted }?.start == Self.base.addingTimeInterval(4))
        let fitted = late.fitted()
        #expect(fitted.start == Self.base.addingTimeInterval(4))
        #expect(fitted.end < Self.base.addingTimeInterval(10), "nothing still going: the end comes in too")
    }

    @Test("the SVG names every lane, span, cause and mark, with a title on each, and escapes text")
    func svg() {
        let records = Self.scene.map { record in
            var record = record
            if record["app"] as? String == "Music" { record["app"] = "Tom & <Jerry>" }
            return record
        }
        let svg = TimelineSVG.render(Timeline(records: records, start: Self.base, end: Self.base.addingTimeInterval(10)))
        #expect(svg.contains("data-session=\"session/1\" data-app=\"Tom &amp; &lt;Jerry&gt;\""))
        #expect(svg.contains("class=\"span ducked\" data-kind=\"ducked\" data-cause=\"session/2\"><title>"))
        #expect(svg.contains("class=\"cause-arrow\" data-from=\"session/2\" data-to=\"session/1\""))
        #expect(!svg.contains("data-from=\"session/3\""), "no arrow from a session with no lane")
        #expect(svg.contains("class=\"route-mark\" data-reason=\"oldDeviceUnavailable\"><title>"))
        #expect(!svg.contains("Tom & <"))
    }
}

/// Records read back from the journal are the records the bridge wrote.
@Suite("Records from the journal")
struct JournalEntryRecordTests {
    @Test("fields come back under their names, JSON values parsed, the time from the journal's")
    func entry() throws {
        let entry: [String: Any] = [
            "__REALTIME_TIMESTAMP": "1780000003000000", "MESSAGE": "interruption …", "SYSLOG_IDENTIFIER": "audiosessiond",
            "AUDIOSESSION_EVENT": "action", "AUDIOSESSION_SESSION": "session/1", "AUDIOSESSION_ACTION": "duck",
            "AUDIOSESSION_CAUSES": "[\"ducker:session/2\"]", "AUDIOSESSION_LEVEL": "0.2", "AUDIOSESSION_APP": "Music",
            "AUDIOSESSION_INTERRUPTERSESSION": "session/3",
        ]
        let record = try #require(JournalEntryRecord.record(entry))
        #expect(record["event"] as? String == "action" && record["session"] as? String == "session/1")
        #expect(record["causes"] as? [String] == ["ducker:session/2"] && record["level"] as? Double == 0.2)
        #expect(record["interrupterSession"] as? String == "session/3")
        #expect(record["ts"] as? String == "2026-05-28T20:26:43.000Z")
        #expect(JournalEntryRecord.record(["MESSAGE": "something else", "__REALTIME_TIMESTAMP": "1"]) == nil)
    }
}
