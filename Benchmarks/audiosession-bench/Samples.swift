// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Durations measured by a benchmark, and their percentiles.
struct Samples {
    private(set) var values: [Duration] = []

    mutating func append(_ value: Duration) { values.append(value) }

    /// The samples of both.
    static func + (one: Samples, other: Samples) -> Samples { Samples(values: one.values + other.values) }

    /// The `fraction` percentile (0.5 is the median), by the nearest-rank method.
    func percentile(_ fraction: Double) -> Duration { nearestRank(fraction, of: values.sorted()) }

    var median: Duration { percentile(0.5) }

    /// This median over `baseline`'s (plus `offset`, a fade's length where the baseline is the floor plus
    /// the fade), with the range that 95 % of its resamples fell in: both sets drawn again with
    /// replacement `resamples` times from a fixed seed, and the 2.5th and 97.5th percentiles of the
    /// ratios so drawn. The range is what the ratio may owe to which calls happened to be measured.
    func medianRatio(over baseline: Samples, plus offset: Duration = .zero, resamples: Int = 2000) -> MedianRatio {
        let (mine, theirs, added) = (values.map(\.milliseconds), baseline.values.map(\.milliseconds), offset.milliseconds)
        var generator = SplitMix64(seed: 0xB007_5742)
        let ratios = (0..<resamples).map { _ in
            nearestRank(0.5, of: Self.drawnAgain(mine, &generator))
                / (nearestRank(0.5, of: Self.drawnAgain(theirs, &generator)) + added)
        }.sorted()
        return MedianRatio(ratio: median / (baseline.median + offset),
                           interval: nearestRank(0.025, of: ratios)...nearestRank(0.975, of: ratios))
    }

    /// As many values drawn from `values` with replacement, sorted.
    private static func drawnAgain(_ values: [Double], _ generator: inout SplitMix64) -> [Double] {
        values.indices.map { _ in values.randomElement(using: &generator)! }.sorted()
    }
}

/// The `fraction` percentile of `sorted`, by the nearest-rank method.
private func nearestRank<Value>(_ fraction: Double, of sorted: [Value]) -> Value {
    precondition(!sorted.isEmpty, "no samples")
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// A ratio of two medians and the range that 95 % of its resamples fell in (``Samples/medianRatio(over:plus:resamples:)``).
struct MedianRatio {
    var ratio: Double
    var interval: ClosedRange<Double>
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
    /// The range that 95 % of the ratio's resamples fell in, where the figure and its baseline are
    /// medians of calls (``MedianRatio``).
    var interval: ClosedRange<Double>? = nil

    /// Prints the lines as an aligned table.
    static func print(_ lines: [ReportLine]) {
        let rows = [["measure", "figure", "baseline", "ratio", "budget"]]
            + lines.map { [$0.name, $0.figure, $0.baseline, $0.ratioText, $0.budget] }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            Swift.print(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
            if index == 0 { Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }

    /// As `1.04×`, or `1.04× (0.98–1.11)` with its interval.
    private var ratioText: String {
        guard let ratio else { return "–" }
        let text = String(format: "%.2f×", ratio)
        guard let interval else { return text }
        return text + String(format: " (%.2f–%.2f)", interval.lowerBound, interval.upperBound)
    }
}

extension ReportLine {
    /// A line whose ratio is a ratio of medians, shown with its interval.
    init(name: String, figure: String, baseline: String, ratio: MedianRatio, budget: String) {
        self.init(name: name, figure: figure, baseline: baseline, ratio: ratio.ratio, budget: budget, interval: ratio.interval)
    }
}
