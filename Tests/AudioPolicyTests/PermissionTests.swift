// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Testing

@testable import AudioPolicy

/// Record permission (DESIGN §2): decisions per app, questions shared by an app's requests, denied
/// apps recording silence, policy defaults, and bad input.
@Suite("Record permission")
struct PermissionTests {
    /// The shipped-like policies plus a recorder that asks and one that is denied by default.
    static let policies: [SessionPolicy] = {
        func recorder(_ name: String, _ app: String, _ permission: RecordPermissionDefault) -> SessionPolicy {
            var policy = SessionPolicy(name: name, configuration: try! SessionConfiguration(category: .record),
                                       activation: .firstStream, match: PolicyMatch(applicationNames: [app]))
            policy.recordPermission = permission
            return policy
        }
        return Scene.policies + [recorder("asks", "Asking Recorder", .ask), recorder("silenced", "Denied Recorder", .denied),
                                 recorder("open", "Open Recorder", .granted)]
    }()

    func asks(_ scene: Scene) -> [String] {
        scene.actions.compactMap { if case .askRecordPermission(let app, _) = $0 { app } else { nil } }
    }

    func stored(_ scene: Scene) -> [String] {
        scene.actions.compactMap { if case .storeRecordPermission(let app, let p) = $0 { "\(app)=\(p.rawValue)" } else { nil } }
    }

    func request(_ scene: inout Scene, _ id: SessionID) -> RequestID {
        let caller = scene.owner(of: id)
        var asked = RequestID(0)
        _ = scene.call { asked = $0; return .requestRecordPermission($0, id, caller: caller) }
        return asked
    }

    func reply(_ scene: Scene, _ request: RequestID) -> Result<ReplyValue, AudioSessionError>? {
        scene.actions.lazy.compactMap { if case .reply(request, let result) = $0 { result } else { nil } }.first
    }

    /// An explicit recording session of `app` with a running input stream.
    func recorder(_ scene: inout Scene, _ app: String = "notes") -> (SessionID, StreamID) {
        let id = scene.activeSession(app, .record)
        let stream = scene.startStream(app, in: id, direction: .input)
        scene.settle()
        return (id, stream)
    }

    @Test("an explicit session is undetermined; its requests share one question; Allow grants and is kept")
    func allowShared() {
        var scene = Scene(policies: Self.policies)
        let (session, stream) = recorder(&scene)
        #expect(scene.engine.recordPermission(of: scene.engine.sessions[session]!) == .undetermined)
        #expect(asks(scene) == ["notes"], "recording without asking asks once")
        let first = request(&scene, session), second = request(&scene, session)
        #expect(asks(scene) == ["notes"], "one question for the app")
        #expect(reply(scene, first) == nil && reply(scene, second) == nil, "the answers wait for the user")
        #expect(!scene.isMuted(stream), "undetermined records until the user decides")
        scene.send(.recordPermissionAnswered(app: "notes", .granted))
        #expect(reply(scene, first) == .success(.bool(true)) && reply(scene, second) == .success(.bool(true)))
        #expect(stored(scene) == ["notes=granted"])
        #expect(!scene.isMuted(stream))
        // Decided: a later request answers at once, without a question.
        let later = request(&scene, session)
        #expect(reply(scene, later) == .success(.bool(true)) && asks(scene).count == 1)
    }

    @Test("Deny answers false and mutes the app's recording; granting later unmutes it at once")
    func denyThenGrant() {
        var scene = Scene(policies: Self.policies)
        let (session, stream) = recorder(&scene)
        let asked = request(&scene, session)
        scene.send(.recordPermissionAnswered(app: "notes", .denied))
        #expect(reply(scene, asked) == .success(.bool(false)))
        #expect(scene.isMuted(stream), "a denied app records silence")
        #expect(scene.journal[stream] != nil, "the mute is journalled")
        #expect(scene.call { .setRecordPermission($0, app: "notes", .granted) } == .success(.done))
        #expect(!scene.isMuted(stream))
        #expect(scene.journal.isEmpty)
        #expect(stored(scene) == ["notes=denied", "notes=granted"])
    }

    @Test("no answer (closed, timed out, no notification server) leaves the app undetermined and keeps nothing")
    func noAnswer() {
        var scene = Scene(policies: Self.policies)
        let (session, stream) = recorder(&scene)
        let asked = request(&scene, session)
        scene.send(.recordPermissionAnswered(app: "notes", nil))
        #expect(reply(scene, asked) == .success(.bool(false)))
        #expect(scene.engine.recordPermission(of: scene.engine.sessions[session]!) == .undetermined)
        #expect(stored(scene).isEmpty && !scene.isMuted(stream))
        // Asking again opens a new question.
        _ = request(&scene, session)
        #expect(asks(scene) == ["notes", "notes"])
    }

    struct PolicyRow: CustomStringConvertible, Sendable {
        var app: String
        var asked: Bool
        var muted: Bool
        var description: String { app }
    }

    @Test("policy sessions: granted by default, asked where the policy says ask, silenced where it says denied",
          arguments: [
              PolicyRow(app: "Open Recorder", asked: false, muted: false),
              PolicyRow(app: "Asking Recorder", asked: true, muted: false),
              PolicyRow(app: "Denied Recorder", asked: false, muted: true),
          ])
    func policyDefaults(_ row: PolicyRow) {
        var scene = Scene(policies: Self.policies)
        let stream = scene.startStream(row.app, direction: .input)
        scene.settle()
        #expect(!asks(scene).isEmpty == row.asked)
        #expect(scene.isMuted(stream) == row.muted)
        // A second recording of the same app in this run is not asked about again.
        _ = scene.startStream(row.app, direction: .input)
        #expect(asks(scene).count == (row.asked ? 1 : 0))
    }

    @Test("kept decisions apply to the app's next recording")
    func loaded() {
        var scene = Scene(policies: Self.policies)
        scene.send(.recordPermissionsLoaded(["notes": .denied, "Open Recorder": .denied]))
        let (_, stream) = recorder(&scene)
        #expect(scene.isMuted(stream) && asks(scene).isEmpty)
        let policyStream = scene.startStream("Open Recorder", direction: .input)
        #expect(scene.isMuted(policyStream))
        #expect(scene.actions.contains(.record(.permission(app: "notes", .denied, source: "stored"))))
    }

    @Test("reset forgets the decision; the default stands again")
    func reset() {
        var scene = Scene(policies: Self.policies)
        scene.send(.recordPermissionsLoaded(["Open Recorder": .denied]))
        let stream = scene.startStream("Open Recorder", direction: .input)
        #expect(scene.isMuted(stream))
        #expect(scene.call { .setRecordPermission($0, app: "Open Recorder", .undetermined) } == .success(.done))
        #expect(!scene.isMuted(stream) && scene.engine.recordPermissions["Open Recorder"] == nil)
        #expect(stored(scene) == ["Open Recorder=undetermined"])
    }

    @Test("bad input: another connection's session is AccessDenied; an unknown app is BadParam")
    func badInput() {
        var scene = Scene(policies: Self.policies)
        let (session, _) = recorder(&scene)
        #expect(scene.error(scene.call { .requestRecordPermission($0, session, caller: ":1.intruder") }) == .accessDenied)
        #expect(scene.error(scene.call { .setRecordPermission($0, app: "never-seen", .granted) }) == .badParam)
        #expect(scene.engine.recordPermissions.isEmpty)
    }
}
