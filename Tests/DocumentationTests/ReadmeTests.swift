// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The README is read in five minutes, and every link in it and in `docs/` leads somewhere: to a file
/// of the project, or to a heading of one.
@Suite("The README and the docs")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The Markdown files whose links are checked: the README, `docs/` and the policy files' page.
    static let documents: [String] = {
        func markdown(in folder: String) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
        }
        return ["README.md", "policies/README.md"] + markdown(in: "docs") + markdown(in: "docs/bench-results")
    }()

    @Test("the README has at most 200 lines and starts with the two commands within its first 30")
    func readmeIsShort() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 200, "\(lines.count) lines")
        let commands = lines.prefix(30)
        #expect(commands.contains { $0.hasPrefix("make run") } && commands.contains { $0.hasPrefix("make test") })
        for heading in ["## A walk-through", "## For app authors", "## Apps you already run", "## Where everything else lives"] {
            #expect(lines.contains { $0.hasPrefix(heading) }, "no section \(heading)")
        }
    }

    @Test("every link resolves to a file or a heading of the project", arguments: documents)
    func linksResolve(document: String) throws {
        let text = try Self.text(document)
        let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
        for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let target = parts[0].isEmpty ? document : URL(fileURLWithPath: folder == "." ? parts[0] : folder + "/" + parts[0]).standardized.relativePath
            let path = Self.root.appendingPathComponent(target).path
            #expect(FileManager.default.fileExists(atPath: path), "\(document): \(link) names no file")
            if parts.count == 2, FileManager.default.fileExists(atPath: path), target.hasSuffix(".md") {
                let anchors = Self.headings(in: try Self.text(target)).map(Self.anchor)
                #expect(anchors.contains(parts[1]), "\(document): \(link) names no heading of \(target)")
            }
        }
    }

    /// The targets of `[text](target)` links outside code blocks.
    static func links(in text: String) -> [String] {
        var links: [String] = []
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode else { continue }
            var rest = line[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[after.index(after: close)...]
            }
        }
        return links
    }

    static func headings(in text: String) -> [String] {
        var inCode = false
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { return nil }
            return String(line.drop { $0 == "#" }.drop { $0 == " " })
        }
    }

    /// A heading's anchor as GitHub makes it: lower case, spaces to dashes, punctuation dropped.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }
}
