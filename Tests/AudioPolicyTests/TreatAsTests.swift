// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// A user's file that governs one app like another policy (`like`, what the indicator's *Treat as*
/// writes), and new policy files taking effect on the streams that play now.
@Suite("Treat as: like, and reloads that govern current streams")
struct TreatAsTests {
    static let treatGameAsMusic = """
        schema = 1
        like = "media-player"
        [match]
        application-names = ["Game"]
        precedence = 1000
        """

    @Test("a file like another policy takes every setting from it and only its match is its own")
    func likeTakesSettings() throws {
        let files = try PolicyFileTests.shipped() + [("treat-as-game.toml", "treat-as-game", Self.treatGameAsMusic)]
        let (set, errors) = PolicyLibrary.load(files)
        #expect(errors.isEmpty, "\(errors)")
        let policy = try #require(set?.policy(for: AppIdentity(name: "Game"), role: nil))
        let model = try #require(set?.policy(named: "media-player"))
        #expect(policy.name == "treat-as-game")
        #expect(policy.configuration == model.configuration)
        #expect(policy.resume == model.resume && policy.usesMPRIS == model.usesMPRIS && policy.activation == model.activation)
        #expect(policy.match == PolicyMatch(applicationNames: ["Game"]))
    }

    /// (file text, line, column, words the message must contain)
    static let refused: [(String, Int, Int, [String])] = [
        ("schema = 1\nlike = \"jukebox\"\n", 2, 8, ["no policy of that name", "media-player"]),
        ("schema = 1\nlike = \"game\"\n[session]\ncategory = \"playback\"\n", 4, 1, ["only [match] may be given"]),
        ("schema = 1\nlike = \"treat-as-x\"\n", 2, 8, ["no policy of that name"]),
    ]

    @Test("like names a policy that is there, and nothing but the match beside it", arguments: refused)
    func likeRefused(row: (String, Int, Int, [String])) throws {
        let (text, line, column, words) = row
        let files = try PolicyFileTests.shipped() + [("treat-as-x.toml", "treat-as-x", text)]
        let (set, errors) = PolicyLibrary.load(files)
        #expect(set == nil)
        #expect(errors.count == 1)
        #expect(errors.first?.position == SourcePosition(line: line, column: column), "\(errors)")
        for word in words { #expect(errors.first?.message.contains(word) == true, "\(errors)") }
    }

    @Test("a reload that gives an app another policy governs its current streams by it at once, and back")
    func reloadGovernsCurrentStreams() throws {
        var scene = Scene()
        let app = scene.startStream("Unknown App")
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        let untouched = !scene.isMuted(app)
        #expect(untouched, "no policy governs the app: a call does not touch it")
        var treated = try #require(Scene.policies.first { $0.name == "media-player" })
        treated.name = "treat-as-unknown-app"
        treated.match = PolicyMatch(applicationNames: ["Unknown App"])
        scene.send(.policiesLoaded(PolicySet(policies: [treated] + Scene.policies)))
        scene.settle()
        let governed = scene.engine.streams[app]?.session.flatMap { scene.engine.sessions[$0]?.policy.name }
        let silenced = scene.isMuted(app)
        #expect(governed == "treat-as-unknown-app")
        #expect(silenced, "as a media player during the call, the app is silenced")
        scene.send(.policiesLoaded(PolicySet(policies: Scene.policies)))
        scene.settle()
        let sessionAfter = scene.engine.streams[app]?.session
        let sessions = scene.engine.sessions.count
        let heardAgain = !scene.isMuted(app)
        #expect(sessionAfter == nil, "as detected again, no policy governs it")
        #expect(sessions == 1, "its policy session ended with its last stream; the call's is left")
        #expect(heardAgain, "and the call no longer silences it")
    }
}
