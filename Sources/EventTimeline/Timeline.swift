// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What happened to each session over a stretch of time, built from event-log records: one lane per
/// session, with spans while it was active, waiting for its turn, interrupted, ducked or muted by the
/// silent switch or the lock, the session that caused each, and its route changes as marks. Pure:
/// records in, a timeline out.
public struct Timeline: Sendable {
    /// What a span shows.
    public enum Kind: String, Sendable, CaseIterable {
        case active, interrupted, ducked, muted
        /// Waiting for its turn (`RequestActivation`), for the session that blocks it.
        case waiting
    }

    /// A stretch of time in one state.
    public struct Span: Sendable {
        public var kind: Kind
        public var start: Date
        public var end: Date
        /// Whether it was still going at the end of the timeline.
        public var isOpen: Bool
        /// A short label ("interrupted by Phone", "ducked to 20 %").
        public var label: String
        /// The session that caused it, when a session did.
        public var cause: String?
        /// Everything known about it, for a tooltip and a screen reader.
        public var title: String
    }

    /// A moment: a route change.
    public struct Mark: Sendable {
        public var time: Date
        public var label: String
        public var reason: String
        public var title: String
    }

    /// One session's lane.
    public struct Lane: Sendable {
        public var session: String
        public var app: String
        public var policy: String
        public var spans: [Span] = []
        public var marks: [Mark] = []
    }

    public var start: Date
    public var end: Date
    public var lanes: [Lane]

    /// The timeline from `start` to `end` of the records (JSON objects of the event log, in the order
    /// they were written). Records before `start` set the state the timeline opens with.
    public init(records: [[String: Any]], start: Date, end: Date) {
        var builder = Builder()
        for record in records {
            guard let time = (record["ts"] as? String).flatMap(Self.date), time <= end else { continue }
            builder.take(record, at: time)
        }
        self.start = start
        self.end = end
        lanes = builder.lanes(start: start, end: end)
    }

    /// The same timeline over the stretch where something happened: from a little before its first
    /// span or mark, and, when nothing is still going, to a little after its last. A window of ten
    /// minutes around a scene of ten seconds would draw it as a line.
    public func fitted() -> Timeline {
        let starts = lanes.flatMap { $0.spans.map(\.start) + $0.marks.map(\.time) }
        let ends = lanes.flatMap { $0.spans.map(\.end) + $0.marks.map(\.time) }
        guard let first = starts.min(), let last = ends.max() else { return self }
        let stillGoing = lanes.contains { $0.spans.contains(where: \.isOpen) }
        let margin = max(last.timeIntervalSince(first) * 0.04, 0.2)
        var fitted = self
        fitted.start = max(start, first.addingTimeInterval(-margin))
        fitted.end = stillGoing ? end : min(end, last.addingTimeInterval(margin))
        return fitted
    }

    /// Parses the log's timestamps (RFC 3339, UTC, with milliseconds).
    public static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }
}

/// Follows the records and opens and closes spans.
struct Builder {
    struct OpenSpan {
        var kind: Timeline.Kind
        var start: Date
        var label: String
        var cause: String?
        var title: String
    }

    var order: [String] = []
    var apps: [String: String] = [:]
    var policies: [String: String] = [:]
    var closed: [String: [Timeline.Span]] = [:]
    var open: [String: [String: OpenSpan]] = [:]
    var marks: [String: [Timeline.Mark]] = [:]
    var ended: Set<String> = []

    mutating func lane(_ session: String, app: String?) {
        if apps[session] == nil { order.append(session) }
        if let app, !app.isEmpty { apps[session] = app } else if apps[session] == nil { apps[session] = "" }
    }

    func appName(_ session: String?) -> String { session.flatMap { apps[$0] }.map { $0.isEmpty ? session! : $0 } ?? session ?? "?" }

    mutating func begin(_ session: String, key: String, _ span: OpenSpan) {
        if open[session]?[key] == nil { open[session, default: [:]][key] = span }
    }

    mutating func finish(_ session: String, key: String, at time: Date, note: String? = nil) {
        guard let span = open[session]?.removeValue(forKey: key) else { return }
        closed[session, default: []].append(Timeline.Span(
            kind: span.kind, start: span.start, end: time, isOpen: false, label: span.label, cause: span.cause,
            title: span.title + (note.map { "; \($0)" } ?? "")))
    }

    mutating func take(_ record: [String: Any], at time: Date) {
        guard let event = record["event"] as? String, let session = record["session"] as? String else { return }
        let app = record["app"] as? String
        lane(session, app: app)
        switch event {
        case "session.created":
            policies[session] = record["policy"] as? String ?? ""
        case "session.released":
            for key in open[session, default: [:]].keys.sorted() { finish(session, key: key, at: time, note: "the session was released") }
            ended.insert(session)
        case "session.active":
            if record["active"] as? Bool == true, record["ok"] as? Bool != false {
                begin(session, key: "active", OpenSpan(kind: .active, start: time, label: "active", cause: nil,
                                                       title: "\(appName(session)) (\(session)) active from \(Self.clock(time))"))
            } else if record["active"] as? Bool == false {
                finish(session, key: "active", at: time)
            }
        case "activation.waiting":
            let blocker = record["blocker"] as? String
            begin(session, key: "waiting", OpenSpan(
                kind: .waiting, start: time, label: "waiting for \(appName(blocker))", cause: blocker,
                title: "\(appName(session)) (\(session)) waiting for its turn after \(appName(blocker))\(blocker.map { " (\($0))" } ?? "") from \(Self.clock(time))"))
        case "activation.granted", "activation.withdrawn":
            let what = event == "activation.granted" ? "granted" : "withdrawn"
            finish(session, key: "waiting", at: time, note: "\(what) at \(Self.clock(time))")
        case "interruption":
            takeInterruption(record, session: session, at: time)
        case "action":
            takeAction(record, session: session, at: time)
        case "route.change":
            let reason = record["reason"] as? String ?? "?"
            let previous = Self.outputs(record["previousRoute"]), current = Self.outputs(record["currentRoute"])
            marks[session, default: []].append(Timeline.Mark(
                time: time, label: reason, reason: reason,
                title: "\(appName(session)) (\(session)): route change at \(Self.clock(time)), reason \(reason); previous route \(previous), now \(current)"))
        default:
            break
        }
    }

    mutating func takeInterruption(_ record: [String: Any], session: String, at time: Date) {
        let interrupter = record["interrupter"] as? String
        let cause = record["interrupterSession"] as? String
        switch record["type"] as? String {
        case "began":
            let by = interrupter ?? (record["reason"] as? String).map { "the \($0) rule" } ?? "?"
            begin(session, key: "interrupted", OpenSpan(
                kind: .interrupted, start: time, label: "interrupted by \(by)", cause: cause,
                title: "\(appName(session)) (\(session)) interrupted by \(by)\(cause.map { " (\($0))" } ?? "") at \(Self.clock(time)), reason \(record["reason"] as? String ?? "default")"))
        case "ended":
            let resume = (record["shouldResume"] as? Bool) == true ? "ended with shouldResume" : "ended without shouldResume"
            finish(session, key: "interrupted", at: time, note: "\(resume) at \(Self.clock(time))")
        default:
            break
        }
    }

    /// Mutes and ducks of a session's streams, by what holds them: a ducker, the silent switch, the lock.
    mutating func takeAction(_ record: [String: Any], session: String, at time: Date) {
        guard let action = record["action"] as? String, ["mute", "unmute", "duck", "unduck"].contains(action) else { return }
        let causes = Set(record["causes"] as? [String] ?? [])
        for cause in causes {
            if cause.hasPrefix("ducker:"), action == "duck" {
                let ducker = String(cause.dropFirst("ducker:".count))
                let level = (record["level"] as? Double).map { " to \(Int(($0 * 100).rounded())) %" } ?? ""
                begin(session, key: cause, OpenSpan(
                    kind: .ducked, start: time, label: "ducked\(level) by \(appName(ducker))", cause: ducker,
                    title: "\(appName(session)) (\(session)) ducked\(level) by \(appName(ducker)) (\(ducker)) from \(Self.clock(time))"))
            } else if cause == "silent-mode" || cause == "screen-lock", action == "mute" {
                let what = cause == "silent-mode" ? "the silent switch" : "the screen lock"
                begin(session, key: cause, OpenSpan(
                    kind: .muted, start: time, label: "muted by \(what)", cause: nil,
                    title: "\(appName(session)) (\(session)) muted by \(what) from \(Self.clock(time))"))
            }
        }
        // The record names everything that holds the stream after it: a ducker or switch it no longer
        // names has let go.
        for key in (open[session] ?? [:]).keys where !["active", "interrupted", "waiting"].contains(key) && !causes.contains(key) {
            finish(session, key: key, at: time)
        }
    }

    func lanes(start: Date, end: Date) -> [Timeline.Lane] {
        order.compactMap { session in
            var spans = closed[session] ?? []
            for span in (open[session] ?? [:]).values.sorted(by: { $0.start < $1.start }) {
                spans.append(Timeline.Span(kind: span.kind, start: span.start, end: end, isOpen: true, label: span.label,
                                           cause: span.cause, title: span.title + "; still so at \(Self.clock(end))"))
            }
            spans = spans.filter { $0.end >= start && $0.start <= end }.map {
                var span = $0
                span.start = max(span.start, start)
                return span
            }.sorted { ($0.start, $0.kind.rawValue) < ($1.start, $1.kind.rawValue) }
            let marks = (marks[session] ?? []).filter { $0.time >= start && $0.time <= end }
            guard !spans.isEmpty || !marks.isEmpty else { return nil }
            return Timeline.Lane(session: session, app: appName(session), policy: policies[session] ?? "", spans: spans, marks: marks)
        }
    }

    /// The outputs of a route as the record gives it: "Speaker", "Headphones + Speaker", or "none".
    static func outputs(_ route: Any?) -> String {
        let outputs = ((route as? [String: Any])?["outputs"] as? [[String: Any]] ?? []).compactMap { $0["portName"] as? String }
        return outputs.isEmpty ? "no output" : outputs.joined(separator: " + ")
    }

    /// A time of day, UTC, with milliseconds.
    static func clock(_ time: Date) -> String {
        time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true).time(includingFractionalSeconds: true))
    }
}
