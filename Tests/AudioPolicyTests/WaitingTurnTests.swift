// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import Testing

/// Waiting for a turn (DESIGN §2): `RequestActivation` answers `active` or `waiting`; a waiting
/// session plays nothing and silences nothing, and becomes active by itself when what blocked it ends.
@Suite("Waiting for a turn")
struct WaitingTurnTests {
    /// A session of `app` configured as `category`, not yet active.
    static func session(_ scene: inout Scene, _ app: String, _ category: SessionCategory,
                        options: CategoryOptions = []) -> SessionID {
        let id = scene.createSession(app)
        scene.setCategory(id, category, options: options)
        return id
    }

    /// A row of ``answer(row:)``: the session, whether a call is active, whether the session already is,
    /// and the answer.
    struct AnswerRow: Sendable, CustomTestStringConvertible {
        var category: SessionCategory
        var options: CategoryOptions = []
        var callActive: Bool
        var alreadyActive = false
        var expected: ActivationState
        var testDescription: String {
            "\(category.rawValue)\(options.names.map { "+\($0)" }.joined()) call=\(callActive) active=\(alreadyActive) → \(expected)"
        }
    }

    @Test("the answer at once, by what is active", arguments: [
        AnswerRow(category: .playback, callActive: true, expected: .waiting),
        AnswerRow(category: .playback, callActive: false, expected: .active),
        AnswerRow(category: .playback, options: [.mixWithOthers], callActive: true, expected: .active),
        AnswerRow(category: .ambient, callActive: true, expected: .active),
        AnswerRow(category: .playback, callActive: false, alreadyActive: true, expected: .active),
    ])
    func answer(row: AnswerRow) {
        let (category, options, callActive, alreadyActive, expected) = (row.category, row.options, row.callActive,
                                                                        row.alreadyActive, row.expected)
        var scene = Scene()
        if callActive { _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat) }
        let id = Self.session(&scene, "app", category, options: options)
        if alreadyActive { scene.setActive(id, true) }
        #expect(scene.requestActivation(id) == .success(.activation(expected)))
        // A session that needs no turn activates, and a call in progress then interrupts it as any other.
        let interruptedAtOnce = callActive && expected == .active
        #expect(scene.engine.sessions[id]?.activationState == (interruptedAtOnce ? .inactive : expected))
        #expect(scene.engine.sessions[id]?.isInterrupted == interruptedAtOnce)
    }

    /// A call, and a podcast app's playback session that asked for its turn during it.
    static func waitingThroughACall(_ scene: inout Scene) -> (call: SessionID, app: SessionID) {
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let app = session(&scene, "podcasts", .playback)
        #expect(scene.requestActivation(app) == .success(.activation(.waiting)))
        return (call, app)
    }

    @Test("a session that waits through a call becomes active by itself when the call ends, told so")
    func grantedWhenTheCallEnds() {
        var scene = Scene()
        let (call, app) = Self.waitingThroughACall(&scene)
        #expect(scene.requestActivation(app) == .success(.activation(.waiting)), "asked again while waiting")
        #expect(scene.turns(app) == [.waiting])
        #expect(scene.granted(app) == 0)
        scene.setActive(call, false)
        #expect(scene.granted(app) == 1)
        #expect(scene.turns(app) == [.waiting, .granted])
        #expect(scene.engine.sessions[app]?.isActive == true)
    }

    @Test("a waiting session plays nothing and silences nothing")
    func waitingIsSilentAndHarmless() {
        var scene = Scene()
        let (call, app) = Self.waitingThroughACall(&scene)
        let callStream = scene.startStream("call", in: call)
        let callLevels = scene.levels(callStream)
        let stream = scene.startStream("podcasts", in: app)
        scene.settle()
        #expect(scene.isMuted(stream))
        #expect(scene.levels(callStream) == callLevels)
        #expect(scene.interruptionTypes(call).isEmpty)
        scene.stopStream(callStream)
        scene.setActive(call, false)
        scene.settle()
        #expect(scene.granted(app) == 1)
        #expect(!scene.isMuted(stream))
    }

    @Test("SetActive(false) withdraws the request, and so does the owner leaving", arguments: [false, true])
    func withdrawn(ownerLeaves: Bool) {
        var scene = Scene()
        let (call, app) = Self.waitingThroughACall(&scene)
        let stream = scene.startStream("podcasts", in: app)
        #expect(scene.isMuted(stream))
        if ownerLeaves {
            scene.send(.ownerVanished(busName: scene.owner(of: app)))
        } else {
            #expect(scene.setActive(app, false) == .success(.done))
            #expect(scene.engine.sessions[app]?.activationState == .inactive)
            #expect(!scene.isMuted(stream))
        }
        #expect(scene.turns(app) == [.waiting, .withdrawn])
        scene.setActive(call, false)
        #expect(scene.granted(app) == 0)
    }

    @Test("waiting sessions are granted in the order they asked, under the arbitration of that moment")
    func inOrder() {
        var scene = Scene()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let first = Self.session(&scene, "podcasts", .playback)
        let second = Self.session(&scene, "music", .playback)
        _ = scene.requestActivation(first)
        _ = scene.requestActivation(second)
        scene.mark()
        scene.setActive(call, false)
        #expect(scene.grants() == [first, second])
        // The newest activation wins: the second, not mixing, interrupts the first.
        #expect(scene.interruptionTypes(first) == [.began])
        #expect(scene.engine.sessions[second]?.isActive == true)
    }

    @Test("a second call keeps them waiting until the last call ends")
    func secondCall() {
        var scene = Scene()
        let (one, app) = Self.waitingThroughACall(&scene)
        let two = scene.activeSession("meeting", .playAndRecord, mode: .videoChat)
        scene.setActive(one, false)
        #expect(scene.granted(app) == 0)
        #expect(scene.engine.sessions[app]?.activationState == .waiting)
        scene.setActive(two, false)
        #expect(scene.granted(app) == 1)
    }

    @Test("SetActive(true) never waits: refused during a call, the request still waits")
    func setActiveNeverWaits() {
        var scene = Scene()
        let (call, app) = Self.waitingThroughACall(&scene)
        #expect(scene.error(scene.setActive(app, true)) == .insufficientPriority)
        #expect(scene.engine.sessions[app]?.activationState == .waiting)
        scene.setActive(call, false)
        #expect(scene.granted(app) == 1)
    }
}

extension Scene {
    mutating func requestActivation(_ id: SessionID) -> Result<ReplyValue, AudioSessionError> {
        let caller = owner(of: id)
        return call { .requestActivation($0, id, caller: caller, []) }
    }

    /// The `activation.*` records of a session, in order.
    func turns(_ id: SessionID) -> [TurnChange] {
        actions.compactMap {
            guard case .record(.turn(id, _, let change, _)) = $0 else { return nil }
            return change
        }
    }

    /// The sessions told `ActivationGranted`, in order.
    func grants() -> [SessionID] {
        actions.compactMap { if case .activationGranted(let id) = $0 { id } else { nil } }
    }

    /// How many times the session was told `ActivationGranted`.
    func granted(_ id: SessionID) -> Int { grants().filter { $0 == id }.count }
}
