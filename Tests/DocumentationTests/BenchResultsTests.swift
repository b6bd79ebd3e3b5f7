// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The README's speed table is the run it names: each cell's ratios are read again from that results file.
@Suite("The README's speed table")
struct BenchResultsTests {
    /// The results file the README names, and the README's table rows by their count of music streams.
    static func readme() throws -> (results: String, rows: [Int: [String]]) {
        let text = try ReadmeTests.text("README.md")
        let link = try #require(text.firstMatch(of: /\]\((docs\/bench-results\/[^)]+\.md)\)/)?.1, "the README names no results file")
        var rows: [Int: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if let count = Int(cells[0]) { rows[count] = Array(cells.dropFirst()) }
        }
        return (String(link), rows)
    }

    /// The first ratio on the line of the run that starts with `prefix` and one of `measures`.
    static func ratio(in run: String, stack prefix: String, _ measures: [String]) -> String? {
        for line in run.split(separator: "\n") {
            guard measures.contains(where: { line.hasPrefix(prefix + $0) }) else { continue }
            return line.firstMatch(of: /(\d+\.\d\d)×/).map { String($0.1) + "×" }
        }
        return nil
    }

    @Test("every cell of the table is the ratio its results file holds, on all four stacks")
    func tableIsTheRun() throws {
        let (results, rows) = try Self.readme()
        let run = try ReadmeTests.text(results)
        let stacks = ["", "PipeWire 1.6: ", "PipeWire 1.4: ", "PipeWire 0.3: "]
        #expect(rows.keys.sorted() == [1, 10, 100])
        for (count, cells) in rows {
            let music = count == 1 ? "1 music stream" : "\(count) music streams"
            for (column, stack) in stacks.enumerated() {
                let fade = Self.ratio(in: run, stack: stack, ["phone → \(music) audibly silenced (first step), shipped policies",
                                                               "phone → \(music) audibly silenced, shipped policies"])
                let off = Self.ratio(in: run, stack: stack, ["phone → \(music) muted, fades off"])
                let outsideFade = Self.ratio(in: run, stack: stack,
                                             ["phone → \(music) silenced or fading, seen by the caller (from outside), shipped policies"])
                let outsideOff = Self.ratio(in: run, stack: stack, ["phone → \(music) silenced, seen by the caller (from outside), fades off"])
                let expected = "\(fade ?? "?") / \(off ?? "?"); \(column == 0 ? "outside " : "")\(outsideFade ?? "?") / \(outsideOff ?? "?")"
                #expect(cells[column] == expected, "\(count) streams, \(stack.isEmpty ? "PulseAudio" : stack)")
            }
        }
    }
}
