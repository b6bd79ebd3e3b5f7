// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Foundation
import Testing

/// Policy files: the shipped ones load, and broken ones are reported with file, line and column.
@Suite("Policy files")
struct PolicyFileTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("policies")

    static func shipped() throws -> [(file: String, name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".toml") }.sorted().map {
            ($0, String($0.dropLast(5)), try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }

    static let expectedNames = ["alarm", "audiobook", "browser-like", "chat", "default", "game", "measurement", "media-player",
                                "music-making", "navigation", "notification", "screen-reader", "video-call",
                                "video-recorder", "voip"]

    @Test("every shipped file loads, and the set has the fallbacks by role")
    func shippedFilesLoad() throws {
        let files = try Self.shipped()
        #expect(files.map(\.name) == Self.expectedNames)
        let (set, errors) = PolicyLibrary.load(files)
        #expect(errors.isEmpty, "\(errors)")
        let policies = try #require(set)
        #expect(policies.fallbackByRole == ["phone": "voip", "event": "notification", "notification": "notification",
                                            "music": "media-player", "video": "media-player", "game": "game",
                                            "a11y": "screen-reader", "alarm": "alarm"])
        #expect(policies.policies.first?.name == "screen-reader", "the highest precedence comes first")
        #expect(policies.policy(named: "voip")?.configuration.isCall == true)
        #expect(policies.policy(named: "navigation")?.activation == .perStream)
        #expect(policies.policy(named: "media-player")?.resume == .ifWasPlaying)
        #expect(policies.policy(named: "browser-like")?.resume == .never)
        #expect(policies.policy(named: "alarm")?.isAlert == true)
        #expect(policies.policy(for: AppIdentity(name: "x", binary: "mpv"), role: nil)?.name == "media-player")
        #expect(policies.policy(for: AppIdentity(name: "x"), role: "phone")?.name == "voip")
        #expect(policies.policy(for: AppIdentity(name: "x"), role: nil) == nil)
    }

    @Test("every shipped file says in comments which guideline it encodes", arguments: expectedNames)
    func shippedFilesExplainThemselves(name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("\(name).toml"), encoding: .utf8)
        #expect(text.hasPrefix("#"))
        #expect(text.contains("Guideline") || name == "default")
    }

    /// (file text, line, column, words the message must contain)
    static let broken: [(String, Int, Int, [String])] = [
        ("schema = 1\n[session]\ncategory = \"loud\"\n", 3, 12, ["unknown category 'loud'"]),
        ("schema = 1\n[session]\ncategory = \"playback\"\nmode = \"voiceChat\"\n", 4, 8, ["voiceChat", "playback"]),
        ("schema = 1\n[session]\ncategory = \"ambient\"\noptions = [\"duckOthers\"]\n", 4, 11, ["duckOthers", "ambient"]),
        ("schema = 1\n[ducking]\nlevel = 3\n", 3, 9, ["within 0.0…1.0"]),
        ("schema = 1\n[mpris]\nuse = \"yes\"\n", 3, 7, ["true or false"]),
        ("schema = 1\n[session]\ncolour = \"red\"\n", 3, 1, ["unknown key session.colour"]),
        ("schema = 1\n[sessions]\ncategory = \"playback\"\n", 3, 1, ["there is no table [sessions]"]),
        ("schema = 2\n", 1, 10, ["schema 2 is not supported"]),
        ("[session]\ncategory = \"playback\"\n", 1, 1, ["schema is required"]),
        ("schema = 1\n[activation]\nwhen = \"sometimes\"\n", 3, 8, ["first-stream"]),
        ("schema = 1\n[session]\ncategory = playback\n", 3, 12, ["strings need quotes"]),
        ("schema = 1\n[session]\ncategory = \"playback\n", 3, 12, ["not closed"]),
        ("schema = 1\nschema = 1\n", 2, 1, ["set twice"]),
        // The longer forms TOML allows keep the position too; inside a wrapped list, the item's.
        ("schema = 1\n[match]\nroles = [\n  \"phone\",\n  42,\n]\n", 5, 3, ["match.roles takes an array of strings", "an integer"]),
        ("schema = 1\n[session]\ncategory = \"playback\"\noptions = [\n  \"mixWithOthers\",\n  \"loudly\",\n]\n", 6, 3,
         ["unknown category option 'loudly'"]),
        ("schema = 1\nsession.colour = \"red\"\n", 2, 1, ["unknown key session.colour"]),
        ("schema = 1\nsession = { category = \"loud\" }\n", 2, 24, ["unknown category 'loud'"]),
        ("schema = 1\n[ducking]\nlevel = nan\n", 3, 9, ["within 0.0…1.0"]),
        ("schema = 1\n[match]\nroles = 2024-01-01\n", 3, 9, ["not a date or time"]),
    ] + TOMLReaderTests.refused

    @Test("a broken file is reported with file:line:column and the rule it broke", arguments: broken)
    func brokenFiles(row: (String, Int, Int, [String])) {
        let (text, line, column, words) = row
        do {
            _ = try PolicyDocument(text: text, file: "broken.toml", name: "broken")
            Issue.record("a broken file was accepted")
        } catch {
            #expect(error.position == SourcePosition(line: line, column: column), "\(error)")
            #expect(error.description.hasPrefix("broken.toml:\(line):\(column): "))
            for word in words { #expect(error.message.contains(word), "\(error.message)") }
        }
    }

    @Test("a set with one broken file is refused whole, naming every error")
    func brokenSetIsRefused() throws {
        var files = try Self.shipped()
        files.append(("zzz.toml", "zzz", "schema = 1\n[session]\ncategory = \"loud\"\n"))
        files.append(("media-player-copy.toml", "media-player-copy", "schema = 1\nname = \"game\"\n"))
        let (set, errors) = PolicyLibrary.load(files)
        #expect(set == nil)
        #expect(errors.map(\.file).sorted() == ["media-player-copy.toml", "zzz.toml"])
    }
}
