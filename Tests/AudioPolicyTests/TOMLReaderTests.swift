// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Foundation
import Testing

/// The policy files' reader takes TOML 1.0 as users write it (wrapped arrays, literal strings, dotted
/// keys, inline tables), refuses what TOML forbids, and keeps line and column for every error.
@Suite("TOML in policy files")
struct TOMLReaderTests {
    /// (document, the entries as `table.key = value`)
    static let accepted: [(String, [String: PolicyValue])] = [
        ("roles = [\n  \"phone\", # calls\n  # a comment line\n  \"music\",\n]\n",
         ["roles": .array([.string("phone"), .string("music")])]),
        ("a = 'C:\\path\\no escapes'\nb = '''\nfirst\n  second'''\n",
         ["a": .string("C:\\path\\no escapes"), "b": .string("first\n  second")]),
        ("a = \"\"\"\none \\\n    two\"\"\"\nb = \"tab\\tquote\\\" \\u00e9\\U0001F3B5\"\nc = \"\"\"\"quoted\"\"\"\"\n",
         ["a": .string("one two"), "b": .string("tab\tquote\" é🎵"), "c": .string("\"quoted\"")]),
        ("match.roles = [\"phone\"]\n[session]\nmode . \"x\" = 1\n",
         ["match.roles": .array([.string("phone")]), "session.mode.x": .integer(1)]),
        ("session = { category = \"playback\", mode = \"default\" }\nx = { a.b = 1 }\n",
         ["session.category": .string("playback"), "session.mode": .string("default"), "x.a.b": .integer(1)]),
        ("\"quoted key\" = 1\n'lit' = 2\n", ["quoted key": .integer(1), "lit": .integer(2)]),
        ("a = 0xDEAD_beef\nb = 0o755\nc = 0b1101\nd = -1_000\ne = +5\nf = 6.02e+23\ng = 1e-2\nh = -0.5\ni = -inf\n",
         ["a": .integer(0xDEAD_BEEF), "b": .integer(0o755), "c": .integer(13), "d": .integer(-1000), "e": .integer(5),
          "f": .float(6.02e23), "g": .float(0.01), "h": .float(-0.5), "i": .float(-.infinity)]),
        ("a = 1979-05-27T07:32:00Z\nb = 1979-05-27 07:32:00.5-07:00\nc = 1979-05-27\nd = 07:32:00\n",
         ["a": .dateTime("1979-05-27T07:32:00Z"), "b": .dateTime("1979-05-27 07:32:00.5-07:00"),
          "c": .dateTime("1979-05-27"), "d": .dateTime("07:32:00")]),
        ("[a.b]\nx = 1\n[a]\ny = 2\nnested = [[1, 2], [\"x\"], [{ k = true }]]\n",
         ["a.b.x": .integer(1), "a.y": .integer(2),
          "a.nested": .array([.array([.integer(1), .integer(2)]), .array([.string("x")]),
                              .array([.table(["k": .boolean(true)])])])]),
        ("a = 1\r\n[t]\r\nb = \"x\"\r\n", ["a": .integer(1), "t.b": .string("x")]),
    ]

    @Test("valid TOML is read into its tables and keys", arguments: accepted)
    func acceptedDocuments(row: (String, [String: PolicyValue])) throws {
        let entries = try TOMLReader.parse(row.0, file: "ok.toml")
        let read = Dictionary(entries.map { ($0.table.isEmpty ? $0.key : "\($0.table).\($0.key)", $0.value) },
                              uniquingKeysWith: { first, _ in first })
        #expect(read == row.1)
        #expect(entries.count == row.1.count)
    }

    @Test("nan is a float")
    func notANumber() throws {
        let entries = try TOMLReader.parse("a = nan\n", file: "ok.toml")
        guard case .float(let value) = entries.first?.value else { Issue.record("\(entries)"); return }
        #expect(value.isNaN)
    }

    /// (document, line, column, words the message must contain): what TOML forbids, refused at its
    /// line and column (checked through `PolicyDocument`, with the broken policy files).
    static let refused: [(String, Int, Int, [String])] = [
        ("roles = [\n  \"phone\",\n  \"music\"\n", 1, 9, ["array is not closed"]),
        ("roles = [\n  \"phone\"\n  \"music\"\n]\n", 3, 3, ["expected , or ]"]),
        ("a.b = 1\na.b = 2\n", 2, 1, ["a.b is set twice"]),
        ("[a]\nx = 1\n[a]\n", 3, 1, ["table [a] is defined twice"]),
        ("a = 1\n[a]\n", 2, 1, ["a is a value, not a table"]),
        ("a = 1\na.b = 2\n", 2, 1, ["a is a value, not a table"]),
        ("a.b = 1\n[a]\n", 2, 1, ["made by dotted keys"]),
        ("[a.b]\n[a]\nb.c = 1\n", 3, 1, ["has its header"]),
        ("a.b = 1\na = 2\n", 2, 1, ["a is a table"]),
        ("t = { a = 1 }\n[t]\n", 2, 1, ["t is a value"]),
        ("t = { a = 1, a = 2 }\n", 1, 14, ["t.a is set twice"]),
        ("t = { a = 1,\n b = 2 }\n", 1, 13, ["expected a key"]),
        ("x = 01\n", 1, 5, ["'01' is not a TOML number"]),
        ("x = 1__0\n", 1, 5, ["not a TOML number"]),
        ("x = 1.\n", 1, 5, ["not a TOML number"]),
        ("x = \"a\\qb\"\n", 1, 7, ["unknown escape"]),
        ("x = \"\\u12\"\n", 1, 6, ["hex digits"]),
        ("x = 'one\ntwo'\n", 1, 5, ["not closed"]),
        ("x = \"\"\"never closed\n", 1, 5, ["not closed"]),
        ("x = 1 2\n", 1, 7, ["unexpected '2' after the value"]),
        ("[[policies]]\n", 1, 1, ["array of tables"]),
        ("[a\n", 1, 1, ["a table header is [name]"]),
        ("= 1\n", 1, 1, ["expected a key"]),
        ("x = \n", 1, 5, ["expected a value"]),
        ("x = playback\n", 1, 5, ["strings need quotes"]),
        ("[t] junk\n", 1, 5, ["after a table header"]),
    ]

    @Test("a shipped policy rewritten with wrapped lists, dotted keys and an inline table reads the same")
    func rewrittenPolicyReadsTheSame() throws {
        let original = try String(contentsOf: PolicyFileTests.folder.appendingPathComponent("voip.toml"), encoding: .utf8)
        let rewritten = """
            # Voice calls, written the long way.
            schema = 1
            description = 'Voice calls'
            session = { category = "playAndRecord", mode = "voiceChat" }
            activation.when = "first-stream"
            activation.release-grace-ms = 5_00
            interruption."notify-others" = true

            [match]
            binaries = [
                "linphone", "baresip", "jami",   # SIP and more
                "mumble", "skypeforlinux",
                "gnome-calls", "kdeconnect-sms",
            ]
            desktop-ids = ["org.gnome.Calls", "linphone", "net.jami.Jami", "info.mumble.Mumble"]
            flatpak-ids = [
                'org.linphone.Linphone',
                'net.jami.Jami',
                'info.mumble.Mumble',
            ]
            categories = ['Telephony']
            roles = ["phone"]
            fallback-for-roles = [
                "phone",
            ]
            precedence = 200

            """
        let expected = try PolicyDocument(text: original, file: "voip.toml", name: "voip")
        let read = try PolicyDocument(text: rewritten, file: "voip.toml", name: "voip")
        #expect(read.policy == expected.policy)
        #expect(read.precedence == expected.precedence && read.fallbackForRoles == expected.fallbackForRoles)
        #expect(read.description == expected.description)
    }
}
