// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Waiting for a turn (DESIGN §2): `RequestActivation` activates a session now if arbitration allows,
/// and otherwise keeps its request until what blocked it ends. A waiting session plays nothing and
/// silences nothing; `SetActive` keeps Apple's meaning and never waits.
extension PolicyEngine {
    mutating func requestActivation(_ request: RequestID, _ id: SessionID, caller: String, _ options: SetActiveOptions) {
        guard let session = ownedSession(request, id, caller) else { return }
        if session.isActive || session.waitingTurn != nil {
            return emit(.reply(request, .success(.activation(session.activationState))))
        }
        if !session.mixesWithOthers, backgroundActivationRefusal(of: session) == nil, let blocker = blocker(of: session) {
            turnCounter += 1
            sessions[id]?.waitingTurn = turnCounter
            emit(.record(.turn(id, app: session.appID, .waiting, blocker: blocker.id)))
            refreshEffects(ofStreamsIn: id, fade: .zero, why: "\(id) waits for its turn after \(blocker.id)")
            return emit(.reply(request, .success(.activation(.waiting))))
        }
        reply(request, to: session, active: true, activateAsAsked(session).map { .activation(.active) })
    }

    /// The session a waiting session waits for (the active session of higher rank that blocks it now),
    /// or nil when it does not wait or nothing of higher rank blocks it.
    public func turnBlocker(of id: SessionID) -> SessionID? {
        guard let session = sessions[id], session.waitingTurn != nil else { return nil }
        return blocker(of: session)?.id
    }

    /// Withdraws a session's request to wait for its turn, if it has one.
    mutating func withdrawTurn(_ id: SessionID) {
        guard let session = sessions[id], session.waitingTurn != nil else { return }
        sessions[id]?.waitingTurn = nil
        emit(.record(.turn(id, app: session.appID, .withdrawn, blocker: nil)))
        refreshEffects(ofStreamsIn: id, fade: .zero, why: "\(id) no longer waits for its turn")
    }

    /// Grants the waiting sessions that nothing blocks now, in the order they asked, each under the
    /// arbitration of that moment: a later one that does not mix interrupts an earlier one, as the
    /// newest activation does.
    mutating func grantWaitingTurns() {
        let waiting = sessions.waitingIDs.compactMap { sessions[$0] }
            .sorted { ($0.waitingTurn ?? 0) < ($1.waitingTurn ?? 0) }
        for candidate in waiting where blocker(of: candidate) == nil {
            sessions[candidate.id]?.waitingTurn = nil
            guard case .success = activate(candidate.id) else { continue }
            emit(.record(.turn(candidate.id, app: candidate.appID, .granted, blocker: nil)))
            emit(.activationGranted(candidate.id))
        }
    }
}
