// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What `audiosessionctl top` shows, as lines of a terminal of a given size: sessions (who interrupts or
/// ducks them, whether they are in a call), their streams (device, level, mute), the devices with the
/// default marked, and the last decisions with their reasons. Pure: the bridge's snapshot and records
/// in, lines out.
public struct TopScreen {
    /// The bridge's `Snapshot()`, parsed.
    public var snapshot: [String: Any]
    /// The last decisions, oldest first, already as text (see ``decision(_:)``).
    public var decisions: [String]
    public var columns: Int
    public var rows: Int
    /// Whether to use colour (not with `NO_COLOR`).
    public var colour: Bool

    public init(snapshot: [String: Any], decisions: [String], columns: Int, rows: Int, colour: Bool) {
        self.snapshot = snapshot
        self.decisions = decisions
        self.columns = max(columns, 40)
        self.rows = max(rows, 10)
        self.colour = colour
    }

    enum Tone: String { case plain = "", bold = "1", red = "31", green = "32", yellow = "33", dim = "2" }

    /// The screen, one string per row (at most ``rows``), each at most ``columns`` wide before escapes.
    public func lines() -> [String] {
        let sessions = snapshot["sessions"] as? [[String: Any]] ?? []
        let streams = snapshot["streams"] as? [[String: Any]] ?? []
        let devices = snapshot["devices"] as? [[String: Any]] ?? []
        // Sessions are named by object path in the snapshot and as "session/N" in causes.
        let apps = Dictionary(sessions.compactMap { s in (s["session"] as? String).map { (Self.short($0), s["app"] as? String ?? "?") } },
                              uniquingKeysWith: { a, _ in a })
        func app(_ session: String) -> String { apps[Self.short(session)] ?? Self.short(session) }

        var screen = [line("audiosession top · \(snapshot["server"] as? String ?? "?") \(snapshot["serverVersion"] as? String ?? "")"
                           + " · silent mode \(snapshot["silentMode"] as? Bool == true ? "on" : "off")"
                           + " · screen \(snapshot["screenLocked"] as? Bool == true ? "locked" : "unlocked")"
                           + (snapshot["connected"] as? Bool == false ? " · SERVER LOST" : ""), .bold, right: "q quits")]
        var sessionLines = [line(columnsText(["SESSION", "APP", "POLICY", "CATEGORY/MODE", "STATE"], Self.sessionColumns), .dim)]
        for session in sessions {
            let path = session["session"] as? String ?? ""
            let (state, tone) = Self.state(of: session, streams: streams.filter { $0["session"] as? String == path }, app: app)
            sessionLines.append(line(columnsText([Self.short(path), session["app"] as? String ?? "?", session["policy"] as? String ?? "",
                                                  "\(session["category"] as? String ?? "")/\(session["mode"] as? String ?? "")", state],
                                                 Self.sessionColumns), tone))
        }
        if sessions.isEmpty { sessionLines.append(line("no sessions", .dim)) }
        var streamLines = [line(columnsText(["STREAM", "APP", "DEVICE", "LEVEL", ""], [14, 16, 16, 18]), .dim)]
        let deviceNames = Dictionary(devices.compactMap { d in (d["device"] as? String).map { ($0, d["name"] as? String ?? $0) } },
                                     uniquingKeysWith: { a, _ in a })
        for stream in streams {
            let (meter, note, tone) = Self.level(of: stream, app: app)
            streamLines.append(line(columnsText([stream["stream"] as? String ?? "", stream["app"] as? String ?? "",
                                                 (stream["device"] as? String).map { deviceNames[$0] ?? $0 } ?? "-", meter, note],
                                                [14, 16, 16, 18]), tone))
        }
        if streams.isEmpty { streamLines.append(line("no streams", .dim)) }
        let deviceText = devices.filter { ($0["port"] as? [String: Any])?["portType"] as? String != "Virtual" || $0["default"] as? Bool == true }
            .map { device -> String in
                let port = (device["port"] as? [String: Any])?["portName"] as? String ?? ""
                return "\(device["default"] as? Bool == true ? "*" : " ")\(device["name"] as? String ?? "?") (\(port))"
            }.joined(separator: "  ")
        let deviceLines = [line("DEVICES (* default)", .dim), line(deviceText.isEmpty ? "none" : deviceText, .plain)]

        // Sessions and streams share what is left after the title, the devices, the decisions' heading
        // and four rows of decisions (the decisions take whatever rows remain).
        let share = max(rows - screen.count - deviceLines.count - 1 - 4, 4)
        let sessionRows = min(sessionLines.count, max(share / 2, share - streamLines.count))
        let streamRows = min(streamLines.count, share - sessionRows)
        screen.append(contentsOf: Self.fit(sessionLines, sessionRows, line: { line("… \($0) more", .dim) }))
        screen.append(contentsOf: Self.fit(streamLines, streamRows, line: { line("… \($0) more", .dim) }))
        screen.append(contentsOf: deviceLines)
        screen.append(line("LAST DECISIONS", .dim))
        let room = max(rows - screen.count, 0)
        screen.append(contentsOf: decisions.suffix(room).map { line($0, .plain) })
        return Array(screen.prefix(rows))
    }

    /// The widths of the session table's columns but the last (the state takes the rest).
    static let sessionColumns = [10, 14, 13, 18]

    /// A session's state: interrupted by whom, ducked by whom and to what level, in a call, active.
    static func state(of session: [String: Any], streams: [[String: Any]], app: (String) -> String) -> (String, Tone) {
        var parts: [String] = []
        var tone = Tone.plain
        let interrupters = session["interruptedBy"] as? [String] ?? []
        if !interrupters.isEmpty {
            parts.append("interrupted by " + interrupters.map { $0.hasPrefix("/") ? app($0) : $0 }.joined(separator: ", "))
            tone = .red
        } else if session["interrupted"] as? Bool == true {
            parts.append("interrupted")
            tone = .red
        }
        if let ducked = streams.first(where: { $0["duckLevel"] is Double }) {
            let level = Int(((ducked["duckLevel"] as? Double ?? 0) * 100).rounded())
            let by = (ducked["causes"] as? [String] ?? []).filter { $0.hasPrefix("ducker:") }.map { app(String($0.dropFirst(7))) }
            parts.append("ducked to \(level) %" + (by.isEmpty ? "" : " by " + by.joined(separator: ", ")))
            if tone == .plain { tone = .yellow }
        }
        if let call = session["call"] as? String { parts.append("in a call: \(call)") }
        if session["activation"] as? String == "waiting" {
            parts.append("WAITING" + ((session["waitingFor"] as? String).map { " for " + app($0) } ?? ""))
            if tone == .plain { tone = .yellow }
        }
        if parts.isEmpty || (interrupters.isEmpty && session["active"] as? Bool == true) {
            parts.insert(session["active"] as? Bool == true ? "active" : "inactive", at: 0)
            if tone == .plain && session["active"] as? Bool == true { tone = .green }
        }
        return (parts.joined(separator: "; "), tone)
    }

    /// A stream's level: a bar of its volume, its sound as the bridge's peak monitor reads it (for a
    /// watched stream), and what holds it muted or ducked.
    static func level(of stream: [String: Any], app: (String) -> String) -> (String, String, Tone) {
        let volumes = stream["volume"] as? [Int] ?? (stream["volume"] as? [Double])?.map { Int($0) } ?? []
        let fraction = volumes.isEmpty ? 0 : Double(volumes.reduce(0, +)) / Double(volumes.count) / 65536
        let muted = stream["mute"] as? Bool == true, corked = stream["corked"] as? Bool == true
        let cells = muted || corked ? 0 : min(Int((fraction * 8).rounded()), 10)
        let sound: String = switch stream["sounding"] as? Bool { case true?: "♪"; case false?: "·"; case nil: " " }
        let meter = String(repeating: "▮", count: cells) + String(repeating: "▯", count: max(8 - cells, 0)) + " \(sound)\(Int((fraction * 100).rounded())) %"
        var notes: [String] = []
        if muted { notes.append("muted") }
        if corked { notes.append("corked") }
        let causes = (stream["causes"] as? [String] ?? []).map { cause -> String in
            if cause.hasPrefix("interruption:") { return "by " + app(String(cause.dropFirst("interruption:".count))) }
            if cause.hasPrefix("ducker:") { return "ducked by " + app(String(cause.dropFirst("ducker:".count))) }
            return cause
        }
        notes.append(contentsOf: causes)
        let tone: Tone = muted ? .red : (stream["duckLevel"] is Double ? .yellow : .plain)
        return (meter, notes.joined(separator: " "), tone)
    }

    /// One decision of the event log as a line: its time and what was decided, with the reason.
    public static func decision(_ record: [String: Any]) -> String? {
        let time = (record["ts"] as? String).map { String($0.dropFirst(11).prefix(12)) } ?? ""
        let app = record["app"] as? String ?? short(record["session"] as? String ?? "")
        let text: String
        switch record["event"] as? String {
        case "interruption":
            let by = record["interrupter"] as? String ?? record["reason"] as? String ?? "?"
            text = record["type"] as? String == "began" ? "\(app) interrupted by \(by)"
                : "\(app)'s interruption by \(by) ended\(record["shouldResume"] as? Bool == true ? " (shouldResume)" : "")"
        case "action":
            text = "\(record["action"] as? String ?? "?") \(record["stream"] as? String ?? record["device"] as? String ?? app): \(record["why"] as? String ?? "")"
        case "route.change":
            text = "\(app): route change, \(record["reason"] as? String ?? "?")"
        case "session.call":
            text = record["inCall"] as? Bool == true ? "\(app) is in a call: \(record["why"] as? String ?? "")" : "\(app)'s call ended"
        case "session.created":
            text = "\(app): \(record["kind"] as? String ?? "") session \(short(record["session"] as? String ?? "")) (\(record["policy"] as? String ?? ""))"
                + ((record["why"] as? String).map { ", because \($0)" } ?? "")
        case "session.released":
            text = "\(app): session \(short(record["session"] as? String ?? "")) released"
        case "server.lost", "server.reset":
            text = record["event"] as? String == "server.lost" ? "the sound server was lost" : "the sound server is back"
        default:
            return nil
        }
        return "\(time) \(text)"
    }

    static func short(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }

    static func fit(_ lines: [String], _ count: Int, line: (Int) -> String) -> [String] {
        guard lines.count > count else { return lines }
        guard count > 1 else { return Array(lines.prefix(count)) }
        return Array(lines.prefix(count - 1)) + [line(lines.count - count + 1)]
    }

    /// Cells padded to their widths (the last takes the rest).
    func columnsText(_ cells: [String], _ widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index < widths.count {
                let width = widths[index]
                let clipped = cell.count >= width ? String(cell.prefix(width - 1)) + "…" : cell
                text += clipped.padding(toLength: width, withPad: " ", startingAt: 0)
            } else {
                text += cell
            }
        }
        return text
    }

    /// A row: clipped to the width, coloured when colour is on, with an optional note at the right.
    func line(_ text: String, _ tone: Tone, right: String? = nil) -> String {
        var text = text
        if let right, text.count + right.count + 2 <= columns {
            text += String(repeating: " ", count: columns - text.count - right.count) + right
        }
        if text.count > columns { text = String(text.prefix(columns - 1)) + "…" }
        guard colour, tone != .plain else { return text }
        return "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m"
    }
}
