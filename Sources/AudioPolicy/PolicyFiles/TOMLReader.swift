// SPDX-License-Identifier: Apache-2.0
/// Reads a TOML 1.0 document into the entries a policy file is made of, each keeping the line and
/// column of its key and value. Tables may be written as `[table]` headers, as dotted keys
/// (`match.roles = […]`) or as inline tables (`session = { category = "playback" }`), in any mix; the
/// definitions TOML forbids (a key set twice, a table defined twice, a value used as a table) are
/// errors at the place of the second definition. Arrays of tables (`[[name]]`) are read and refused:
/// no policy key takes one.
public enum TOMLReader {
    public static func parse(_ text: String, file: String) throws(PolicyFileError) -> [PolicyEntry] {
        var scanner = TOMLScanner(text, file: file)
        var definitions = Definitions()
        var entries: [PolicyEntry] = []
        var table: [String] = []
        while true {
            scanner.skipBlank()
            if scanner.atEnd { return entries }
            let start = scanner.position
            if scanner.peek == "[" {
                let isArrayOfTables = scanner.peek(1) == "["
                scanner.advance(isArrayOfTables ? 2 : 1)
                let path = try scanner.key()
                guard scanner.looking(at: isArrayOfTables ? "]]" : "]") else {
                    throw scanner.error(at: start, isArrayOfTables ? "an array-of-tables header is [[name]]" : "a table header is [name]")
                }
                guard !isArrayOfTables else {
                    throw scanner.error(at: start, "[[\(name(path))]] is an array of tables; no policy key takes one")
                }
                scanner.advance()
                if let conflict = definitions.defineTable(path) { throw scanner.error(at: start, conflict) }
                table = path
                try scanner.expectEndOfLine(after: "a table header")
                continue
            }
            let path = try scanner.key()
            guard scanner.peek == "=" else {
                throw scanner.error(at: scanner.position, "expected = after \(name(path))")
            }
            scanner.advance()
            scanner.skipSpaces()
            let valuePosition = scanner.position
            if let conflict = definitions.defineValue(table + path, dottedFrom: table.count) {
                throw scanner.error(at: start, conflict)
            }
            var values: [([String], PolicyValue, SourcePosition, SourcePosition)]
            var itemPositions: [SourcePosition] = []
            if scanner.peek == "{" {
                values = try scanner.inlineTable()
                var seen: Set<[String]> = []
                for (inner, _, keyPosition, _) in values where !seen.insert(inner).inserted {
                    throw scanner.error(at: keyPosition, "\(name(table + path + inner)) is set twice")
                }
                values = values.map { (path + $0.0, $0.1, $0.2, $0.3) }
            } else if scanner.peek == "[" {
                let items = try scanner.array()
                values = [(path, .array(items.map(\.value)), start, valuePosition)]
                itemPositions = items.map(\.position)
            } else {
                values = [(path, try scanner.value(), start, valuePosition)]
            }
            for (keyPath, value, keyPosition, valuePosition) in values {
                let full = table + keyPath
                entries.append(PolicyEntry(table: name(full.dropLast()), key: full.last!, value: value,
                                           keyPosition: keyPosition, valuePosition: valuePosition,
                                           itemPositions: keyPath == path ? itemPositions : []))
            }
            try scanner.expectEndOfLine(after: "the value")
        }
    }

    /// A key path as written in messages and in `PolicyEntry.table`: bare segments as they are, any
    /// other quoted (so `"a.b"` never reads as table `a`, key `b`).
    static func name<Path: Collection<String>>(_ path: Path) -> String {
        path.map { segment in
            !segment.isEmpty && segment.allSatisfy(TOMLScanner.isBare) ? segment : "\"\(segment)\""
        }.joined(separator: ".")
    }

    /// What has been defined so far, to refuse what TOML forbids.
    struct Definitions {
        /// Keys holding a value (inline tables included: they are closed).
        var values: Set<[String]> = []
        /// Tables made by a `[header]`.
        var headers: Set<[String]> = []
        /// Tables made by the dotted part of a key.
        var dotted: Set<[String]> = []
        /// Every table, however it came to be.
        var tables: Set<[String]> = []

        /// Nil, or why `path` may not be a table.
        mutating func defineTable(_ path: [String]) -> String? {
            if let value = prefixHoldingValue(path, including: true) { return "\(TOMLReader.name(value)) is a value, not a table" }
            if headers.contains(path) { return "table [\(TOMLReader.name(path))] is defined twice" }
            if dotted.contains(path) { return "table [\(TOMLReader.name(path))] was already made by dotted keys" }
            headers.insert(path)
            for length in 1...path.count { tables.insert(Array(path.prefix(length))) }
            return nil
        }

        /// Nil, or why `path` may not take a value; the segments from `dottedFrom` on made tables
        /// by dots.
        mutating func defineValue(_ path: [String], dottedFrom: Int) -> String? {
            if let value = prefixHoldingValue(path, including: false) { return "\(TOMLReader.name(value)) is a value, not a table" }
            if values.contains(path) { return "\(TOMLReader.name(path)) is set twice" }
            if tables.contains(path) { return "\(TOMLReader.name(path)) is a table" }
            for length in stride(from: path.count - 1, to: dottedFrom, by: -1) {
                let prefix = Array(path.prefix(length))
                if headers.contains(prefix) && length > dottedFrom {
                    return "table [\(TOMLReader.name(prefix))] has its header; add to it there, not by dotted keys"
                }
                dotted.insert(prefix)
            }
            for length in 1..<max(path.count, 1) { tables.insert(Array(path.prefix(length))) }
            values.insert(path)
            return nil
        }

        private func prefixHoldingValue(_ path: [String], including whole: Bool) -> [String]? {
            let longest = whole ? path.count : path.count - 1
            guard longest >= 1 else { return nil }
            return (1...longest).lazy.map { Array(path.prefix($0)) }.first { values.contains($0) }
        }
    }
}
