// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import PulseAudioClient

/// The adapter's questions: the server's subscription events, and the queries they lead to, asked at
/// once for a new object and gathered, or held, for changes (``ServerAdapter/holdsChangeQueries``).
extension ServerAdapter {
    /// A subscription event: a removal is taken in at once, a new object asked for at once, a change
    /// gathered and asked for at the end of the loop turn.
    func changed(_ change: PulseChange) {
        guard let context, context.state == .ready else { return }
        let sameObject = { (other: PulseChange) in other.isAboutSameObject(as: change) }
        if change.kind == .remove {
            order.removed(change.facility, change.index)
            pendingQueries.removeAll(where: sameObject)
            heldChanges.removeAll(where: sameObject)
            removed(change.facility, change.index)
            if [.sink, .source].contains(change.facility) { checkDefaultsOnPipeWire() }
            return
        }
        // A new client is asked for at once too, but holds nothing: it brings no change of another
        // object and no command waits for it. Held behind it, the question about a level someone just
        // set (from a new connection: pactl's) would go out after the bridge's next command to that
        // stream, which the server carries out over the level before answering.
        if change.kind == .new { return change.facility == .client ? ask(change, context) : askNew(change, context) }
        // A change of an object whose first answer is still out is in that answer.
        guard !pendingQueries.contains(where: sameObject), !newQueriesOut.contains(where: sameObject) else { return }
        pendingQueries.append(change)
        queryFlush.setEnabled(true)
    }

    /// Asks for a new object at once, not at the end of the loop turn: the commands the engine decides
    /// on a new stream (muting the others for a call) wait for this answer. The changes gathered until
    /// every new object's answer is in are asked for then, so those commands reach the server before
    /// it answers about every other stream.
    func askNew(_ change: PulseChange, _ context: PulseContext) {
        newQueriesOut.append(change)
        ask(change, context) { [unowned self] in
            guard isCurrent(context) else { return }  // answered by a connection since replaced
            newQueriesOut.removeAll { $0.isAboutSameObject(as: change) }
            askHeld()
        }
    }

    /// Sends the held change queries, unless a new object's answer is out or they are held
    /// (``holdsChangeQueries``); on the connection there is now (a takeover may have retired the one a
    /// new object's answer came on).
    func askHeld() {
        guard newQueriesOut.isEmpty, !holdsChangeQueries, !heldChanges.isEmpty else { return }
        let held = heldChanges
        heldChanges = []
        if let current = context, current.state == .ready { held.forEach { ask($0, current) } }
    }

    /// Sends the gathered change queries, or holds them while a new object's answer is out or
    /// ``holdsChangeQueries`` is set.
    func askPending() {
        queryFlush.setEnabled(false)
        let changes = pendingQueries
        pendingQueries = []
        guard let context, context.state == .ready else { return }
        guard newQueriesOut.isEmpty, !holdsChangeQueries else {
            for change in changes where !heldChanges.contains(where: change.isAboutSameObject) {
                heldChanges.append(change)
            }
            return
        }
        changes.forEach { ask($0, context) }
    }

    /// The connection taken over from failed before its last answers came in: those answers (a new
    /// stream's among them) are read again on the connection there is now, with everything else.
    func retiringConnectionFailed() {
        forgetPendingQueries()
        readEverything()
    }

    /// Forgets the queries not sent yet (the connection is gone).
    func forgetPendingQueries() {
        pendingQueries = []
        heldChanges = []
        newQueriesOut = []
    }

    /// Queries the object an event names; a late answer about a removed object is dropped. `answered`
    /// runs after the answer was taken in.
    func ask(_ change: PulseChange, _ context: PulseContext, answered whenAnswered: @escaping () -> Void = {}) {
        let asked = order.querySent()
        let answered = { [unowned self] in
            guard self.isCurrent(context) else { return whenAnswered() }
            self.order.queryAnswered(asked)
            whenAnswered()
        }
        switch change.facility {
        case .server:
            context.serverInfo { [unowned self] in
                if case .success(let info) = $0 { self.serverInfoReported(info) }
                answered()
            }
        case .sink, .source:
            let device = change.facility == .sink ? context.sink : context.source
            device(change.index) { [unowned self] in
                if case .success(let device?) = $0 { self.deviceArrived(device, askedAt: asked) }
                answered()
            }
        case .sinkInput, .sourceOutput:
            let stream = change.facility == .sinkInput ? context.sinkInput : context.sourceOutput
            stream(change.index, ServerTranslation.streamKeysRead) { [unowned self] in
                if case .success(let stream?) = $0 { self.streamArrived(stream, askedAt: asked) }
                answered()
            }
        case .card:
            context.card(change.index) { [unowned self] in
                if case .success(let card?) = $0 { self.cardArrived(card, askedAt: asked) }
                answered()
            }
        case .client:
            context.client(change.index) { [unowned self] in
                if case .success(let client?) = $0 { self.clientArrived(client, askedAt: asked) }
                answered()
            }
        }
    }
}
