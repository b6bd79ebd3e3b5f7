// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What happens to the session, as async sequences (the notifications' typed counterparts).
extension AudioSession {
    /// Interruptions, as they happen.
    public func interruptions() -> AsyncStream<Interruption> {
        stream(\.interruptionContinuations)
    }

    /// Route changes, as they happen.
    public func routeChanges() -> AsyncStream<RouteChange> {
        stream(\.routeContinuations)
    }

    /// Secondary-audio hints, as they happen.
    public func silenceSecondaryAudioHints() -> AsyncStream<SilenceSecondaryAudioHintType> {
        stream(\.hintContinuations)
    }

    /// Losses and resets of media services, as they happen.
    public func mediaServicesEvents() -> AsyncStream<MediaServicesEvent> {
        stream(\.mediaContinuations)
    }

    /// A stream fed from one of the session's tables of continuations. The table, not a closure,
    /// names where it goes: nothing the session keeps refers back to the session, so the session goes
    /// when the app lets it go, and its streams end then.
    func stream<T>(_ table: ReferenceWritableKeyPath<AudioSession, [UUID: AsyncStream<T>.Continuation]> & Sendable)
        -> AsyncStream<T>
    {
        let (stream, continuation) = AsyncStream<T>.makeStream()
        let id = UUID()
        lock.withLock { self[keyPath: table][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.withLock { self[keyPath: table][id] = nil }
        }
        return stream
    }
}
