// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation

/// What one reliability run found on one server stack: how many cycles it made, what went wrong
/// (each failure named), the figures that missed their budget (times and memory: `make soak` judges
/// them, the short runs in `make test` do not), and its figures (name and value, already formatted).
public struct SoakResult: Sendable {
    public var run: String
    public var stack: SoundServerKind
    public var cycles: Int
    public var failures: [String]
    public var budgetMisses: [String] = []
    public var figures: [(String, String)]

    public init(run: String, stack: SoundServerKind, cycles: Int, failures: [String] = [], figures: [(String, String)] = []) {
        self.run = run
        self.stack = stack
        self.cycles = cycles
        self.failures = failures
        self.figures = figures
    }

    /// The table `make soak` prints: one row per run and stack, then every failure in full.
    public static func table(_ results: [SoakResult]) -> String {
        var lines = ["| run | stack | cycles | failures | over budget | figures |", "|---|---|---:|---:|---:|---|"]
        for result in results {
            let figures = result.figures.map { "\($0.0) \($0.1)" }.joined(separator: "; ")
            lines.append("| \(result.run) | \(result.stack) | \(result.cycles) | \(result.failures.count) | "
                + "\(result.budgetMisses.count) | \(figures) |")
        }
        for result in results where !result.failures.isEmpty || !result.budgetMisses.isEmpty {
            lines.append("")
            lines.append("\(result.run) on \(result.stack):")
            lines += (result.failures + result.budgetMisses).prefix(20).map { "  - \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Figures of a list of durations: median and maximum, in milliseconds.
func millisecondsSummary(_ samples: [Duration]) -> String {
    guard !samples.isEmpty else { return "–" }
    let sorted = samples.sorted()
    func ms(_ d: Duration) -> String { String(format: "%.1f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
    return "p50 \(ms(sorted[sorted.count / 2])), max \(ms(sorted.last!))"
}
