// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import DBusKit
import Foundation

/// Waiting for a turn (Android's delayed focus): an activation that, during a call, waits until the
/// call ends instead of failing with `InsufficientPriority`. ``setActive(_:options:)`` keeps Apple's
/// meaning and never waits.
extension AudioSession {
    /// Where the session stands: `.inactive`, `.active`, or `.waiting` for its turn.
    public typealias ActivationState = AudioSessionModel.ActivationState

    /// Where the session stands on activation, as the bridge last published it.
    public var activationState: ActivationState {
        property("ActivationState")?.stringValue.flatMap(ActivationState.init(rawValue:)) ?? .inactive
    }

    /// Activates the session now if arbitration allows, and otherwise asks to become active by itself
    /// when what blocks it (a call) ends: answers `.active` or `.waiting`. A waiting session plays
    /// nothing and silences nothing; ``activationGrants()`` tells when its turn came, and
    /// `setActive(false)` withdraws the request. Options are `setActive`'s.
    public func requestActivation(options: SetActiveOptions = []) async throws -> ActivationState {
        let reply = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[BusValue], Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.call("RequestActivation", [.strings(options.names)]) })
            }
        }
        guard let state = reply.first?.stringValue.flatMap(ActivationState.init(rawValue:)) else {
            throw AudioSessionError(.unspecified, "the bridge answered RequestActivation with \(reply)")
        }
        update {
            $0.active = state == .active
            $0.waitsForTurn = state == .waiting
        }
        return state
    }

    /// Each time a waiting request became active by itself (`ActivationGranted`): the session is
    /// active from then on. A request still waiting when the bridge restarts is made again; if nothing
    /// blocks it any more, the grant comes at once. The stream ends when the session goes.
    public func activationGrants() -> AsyncStream<Void> {
        stream(\.grantContinuations)
    }
}
