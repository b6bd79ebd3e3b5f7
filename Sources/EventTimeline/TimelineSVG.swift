// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Draws a ``Timeline`` as SVG for a bug report: one lane per session with its spans, an arrow from the
/// session that caused each span, route changes as marks, text labels readable at a glance, and a
/// `<title>` on every span, arrow and mark (a tooltip, and what a screen reader reads).
public enum TimelineSVG {
    static let width = 1200.0
    static let labelWidth = 230.0
    static let laneHeight = 78.0
    static let top = 70.0
    static let rowHeight = 15.0

    /// Each kind's colour and row within its lane.
    static func style(_ kind: Timeline.Kind) -> (fill: String, row: Double) {
        switch kind {
        case .active: ("#4caf50", 0)
        case .waiting: ("#90caf9", 0)  // never at the same time as active
        case .interrupted: ("#e53935", 1)
        case .muted: ("#757575", 1)
        case .ducked: ("#ffb300", 2)
        }
    }

    public static func render(_ timeline: Timeline, title: String = "audiosession timeline") -> String {
        let lanes = timeline.lanes
        let height = top + Double(max(lanes.count, 1)) * laneHeight + 60
        let span = max(timeline.end.timeIntervalSince(timeline.start), 0.001)
        let plotWidth = width - labelWidth - 30
        func x(_ time: Date) -> Double { labelWidth + plotWidth * min(max(time.timeIntervalSince(timeline.start) / span, 0), 1) }
        func laneTop(_ index: Int) -> Double { top + Double(index) * laneHeight }
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12" role="img">
            <title>\(escape(title)): \(lanes.count) sessions from \(Builder.clock(timeline.start)) to \(Builder.clock(timeline.end))</title>
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#37474f"/></marker></defs>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="10" y="22" font-size="16" font-weight="bold">\(escape(title))</text>

            """
        svg += axis(timeline, x: x, bottom: height - 50)
        let laneIndex = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1.session, $0) })
        for (index, lane) in lanes.enumerated() {
            let y = laneTop(index)
            svg += "<g class=\"lane\" data-session=\"\(escape(lane.session))\" data-app=\"\(escape(lane.app))\">\n"
            svg += "<title>\(escape("\(lane.app) (\(lane.session))\(lane.policy.isEmpty ? "" : ", policy \(lane.policy)")"))</title>\n"
            svg += "<rect x=\"0\" y=\"\(f(y))\" width=\"\(Int(width))\" height=\"\(f(laneHeight))\" fill=\"\(index % 2 == 0 ? "#f5f7fa" : "#ffffff")\"/>\n"
            svg += "<text x=\"10\" y=\"\(f(y + 24))\" font-weight=\"bold\">\(escape(lane.app))</text>\n"
            svg += "<text x=\"10\" y=\"\(f(y + 42))\" fill=\"#555555\">\(escape(lane.session + (lane.policy.isEmpty ? "" : " · \(lane.policy)")))</text>\n"
            for item in lane.spans {
                let (fill, row) = style(item.kind)
                let left = x(item.start), right = max(x(item.end), left + 2)
                let top = y + 6 + row * (rowHeight + 3)
                svg += "<g class=\"span \(item.kind.rawValue)\" data-kind=\"\(item.kind.rawValue)\"\(item.cause.map { " data-cause=\"\(escape($0))\"" } ?? "")>"
                svg += "<title>\(escape(item.title))</title>"
                svg += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(right - left))\" height=\"\(f(rowHeight))\" rx=\"3\" fill=\"\(fill)\"/>"
                if right - left > Double(item.label.count) * 6.2 + 8 {
                    svg += "<text x=\"\(f(left + 4))\" y=\"\(f(top + 11.5))\" font-size=\"11\" fill=\"\(item.kind == .ducked ? "#000000" : "#ffffff")\">\(escape(item.label))</text>"
                }
                svg += "</g>\n"
            }
            // A mark's label is written when it does not run into the previous one; its title always is.
            var labelEnd = -Double.infinity
            for mark in lane.marks.sorted(by: { $0.time < $1.time }) {
                let mx = x(mark.time), my = y + laneHeight - 5
                svg += "<g class=\"route-mark\" data-reason=\"\(escape(mark.reason))\"><title>\(escape(mark.title))</title>"
                svg += "<path d=\"M\(f(mx)),\(f(my - 10)) L\(f(mx + 6)),\(f(my)) L\(f(mx - 6)),\(f(my)) z\" fill=\"#1e88e5\"/>"
                let textWidth = Double(mark.label.count) * 6.2
                let fitsRight = mx + 8 + textWidth < width
                if (fitsRight ? mx + 8 : mx - 8 - textWidth) > labelEnd {
                    svg += "<text x=\"\(f(fitsRight ? mx + 8 : mx - 8))\" y=\"\(f(my))\" font-size=\"11\" fill=\"#1e88e5\"\(fitsRight ? "" : " text-anchor=\"end\"")>\(escape(mark.label))</text>"
                    labelEnd = fitsRight ? mx + 8 + textWidth : mx
                }
                svg += "</g>\n"
            }
            svg += "</g>\n"
        }
        // Arrows last, over the lanes: from the causing session's lane to the span it caused.
        for (index, lane) in lanes.enumerated() {
            for item in lane.spans {
                guard let cause = item.cause, let from = laneIndex[cause], item.kind != .active else { continue }
                let ax = x(item.start)
                let startY = laneTop(from) + laneHeight / 2
                let endY = laneTop(index) + 6 + style(item.kind).row * (rowHeight + 3) + (from < index ? 0 : rowHeight)
                svg += "<path class=\"cause-arrow\" data-from=\"\(escape(cause))\" data-to=\"\(escape(lane.session))\" d=\"M\(f(ax - 14)),\(f(startY)) L\(f(ax)),\(f(endY))\" stroke=\"#37474f\" stroke-width=\"1.5\" fill=\"none\" marker-end=\"url(#arrow)\"><title>\(escape("\(item.label): caused by \(laneIndex[cause].map { lanes[$0].app } ?? cause) (\(cause))"))</title></path>\n"
            }
        }
        svg += legend(y: height - 22)
        svg += "</svg>\n"
        return svg
    }

    /// The time axis: ticks at a round interval, labelled with the time of day (UTC).
    static func axis(_ timeline: Timeline, x: (Date) -> Double, bottom: Double) -> String {
        let seconds = timeline.end.timeIntervalSince(timeline.start)
        let step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].first { seconds / $0 <= 10 } ?? 3600
        var svg = "<g class=\"axis\"><line x1=\"\(f(labelWidth))\" y1=\"\(f(top - 8))\" x2=\"\(f(width - 30))\" y2=\"\(f(top - 8))\" stroke=\"#90a4ae\"/>\n"
        var tick = (timeline.start.timeIntervalSince1970 / step).rounded(.up) * step
        while tick <= timeline.end.timeIntervalSince1970 {
            let time = Date(timeIntervalSince1970: tick)
            let tx = x(time)
            let label = time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: step < 1).time(includingFractionalSeconds: step < 1))
            svg += "<line x1=\"\(f(tx))\" y1=\"\(f(top - 12))\" x2=\"\(f(tx))\" y2=\"\(f(bottom))\" stroke=\"#eceff1\"/>"
            svg += "<text x=\"\(f(tx))\" y=\"\(f(top - 16))\" text-anchor=\"middle\" font-size=\"10\" fill=\"#546e7a\">\(escape(label))</text>\n"
            tick += step
        }
        return svg + "</g>\n"
    }

    static func legend(y: Double) -> String {
        var svg = "<g class=\"legend\">"
        var lx = labelWidth
        for kind in Timeline.Kind.allCases {
            svg += "<rect x=\"\(f(lx))\" y=\"\(f(y - 10))\" width=\"14\" height=\"10\" fill=\"\(style(kind).fill)\"/>"
            svg += "<text x=\"\(f(lx + 18))\" y=\"\(f(y))\" font-size=\"11\">\(kind.rawValue)</text>"
            lx += 110
        }
        svg += "<path d=\"M\(f(lx + 6)),\(f(y - 10)) L\(f(lx + 12)),\(f(y)) L\(f(lx)),\(f(y)) z\" fill=\"#1e88e5\"/><text x=\"\(f(lx + 18))\" y=\"\(f(y))\" font-size=\"11\">route change</text>"
        svg += "<text x=\"\(f(lx + 130))\" y=\"\(f(y))\" font-size=\"11\">→ caused by</text></g>\n"
        return svg
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
