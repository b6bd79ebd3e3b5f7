// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Durations measured by a benchmark, and their percentiles.
struct Samples {
    private(set) var values: [Duration] = []

    mutating func append(_ value: Duration) { values.append(value) }

    /// The samples of both.
    static func + (one: Samples, other: Samples) -> Samples { Samples(values: one.values + other.values) }

    /// The `fraction` percentile (0.5 is the median), by the nearest-rank method.
    func percentile(_ fraction: Double) -> Duration {
        precondition(!values.isEmpty, "no samples")
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Duration { percentile(0.5) }
}

extension Duration {
    /// Whole seconds and attoseconds as a Double number of milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// As `0.123 ms` or `12.3 µs`.
    var formatted: String {
        milliseconds >= 1 ? String(format: "%.2f ms", milliseconds) : String(format: "%.1f µs", milliseconds * 1000)
    }
}

/// One line of the report: a figure, the baseline measured in the same run, and the budget it is held to.
struct ReportLine {
    var name: String
    var figure: String
    var baseline: String
    var ratio: Double?
    var budget: String

    /// Prints the lines as an aligned table.
    static func print(_ lines: [ReportLine]) {
        let rows = [["measure", "figure", "baseline", "ratio", "budget"]]
            + lines.map { [$0.name, $0.figure, $0.baseline, $0.ratio.map { String(format: "%.2f×", $0) } ?? "–", $0.budget] }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            Swift.print(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
            if index == 0 { Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }
}
