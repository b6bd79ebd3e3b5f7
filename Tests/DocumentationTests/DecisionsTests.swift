// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// docs/DECISIONS.md is a list of numbered, dated records with an index, and the documents that explain
/// the benchmarks and the limits copy no run's figures (they link to docs/bench-results).
@Suite("Decision records")
struct DecisionsTests {
    struct Record {
        let number: Int
        let title: String
        var lines: [Substring]
    }

    /// The records, each from its `## N. Title` heading to the next heading.
    static func records() throws -> [Record] {
        var records: [Record] = []
        var inRecord = false
        for line in try ReadmeTests.text("docs/DECISIONS.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if let heading = line.wholeMatch(of: /## (\d+)\. (.+)/) {
                records.append(Record(number: Int(heading.1)!, title: String(heading.2), lines: [line]))
                inRecord = true
            } else if line.hasPrefix("## ") {
                inRecord = false
            } else if inRecord {
                records[records.count - 1].lines.append(line)
            }
        }
        return records
    }

    @Test("the records are numbered from 1 without a gap, each at most fifteen lines, dated, with its status")
    func numberedDatedShort() throws {
        let records = try Self.records()
        #expect(records.count > 50)
        #expect(records.map(\.number) == Array(1...records.count))
        let meta = /^\*\d{4}-\d{2}-\d{2} · [^·]+ · (accepted|superseded by \[\d+\]\(#[^)]+\))( · replaces .+)?\*$/
        for record in records {
            let body = record.lines.reversed().drop { $0.isEmpty }
            #expect(body.count <= 15, "record \(record.number) has \(body.count) lines")
            let stamp = record.lines.first { $0.hasPrefix("*") }.map(String.init) ?? ""
            #expect(stamp.wholeMatch(of: meta) != nil, "record \(record.number): \(stamp)")
            for part in ["- **Context.**", "- **Decision.**", "- **Consequences.**"] {
                #expect(record.lines.contains { $0.hasPrefix(part) }, "record \(record.number) has no \(part)")
            }
        }
    }

    @Test("the index lists every record by its number and title, and a superseded one points to a later record")
    func index() throws {
        let records = try Self.records()
        let text = try ReadmeTests.text("docs/DECISIONS.md")
        for record in records {
            let anchor = ReadmeTests.anchor("\(record.number). \(record.title)")
            #expect(text.contains("| \(record.number) | "), "no index row for \(record.number)")
            #expect(text.contains("[\(record.title)](#\(anchor))"), "the index does not link record \(record.number)")
            if let stamp = record.lines.first(where: { $0.hasPrefix("*") }),
               let match = stamp.firstMatch(of: /superseded by \[(\d+)\]/) {
                #expect(Int(match.1)! > record.number, "record \(record.number) is superseded by an earlier one")
            }
        }
    }

    @Test("benchmarks.md, limits.md and the README copy no run's table; the README names its results file",
          arguments: ["docs/benchmarks.md", "docs/limits.md", "README.md"])
    func noCopiedRuns(document: String) throws {
        let text = try ReadmeTests.text(document)
        #expect(!text.contains("```\nmeasure "), "\(document) holds a run's table")
        if document == "README.md" {
            #expect(text.contains("](docs/bench-results/"), "the README's table names no results file")
        } else {
            #expect(text.firstMatch(of: /\d\.\d\d×/) == nil, "\(document) quotes a ratio of a run")
        }
    }
}
