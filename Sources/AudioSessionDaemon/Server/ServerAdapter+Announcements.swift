// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// When the server is done with the bridge's level commands: it has answered them and, on PulseAudio,
/// announced what they changed.
///
/// PulseAudio answers a command as soon as it has carried it out, but announces the change to its
/// subscribers only later in its loop. It writes the answers first, and it reads the bridge's next
/// commands in the same breath. A command read in that gap changes the stream again before the first
/// change is announced, and PulseAudio announces the two as one: it drops an announcement of an
/// object while an earlier one of it waits to go out. On a loaded machine, the bridge's next fade step
/// came in that gap: every client saw the music go from playing to muted in one change.
///
/// So while a fade is under way, behind each batch of level commands the bridge sends a marker: an
/// update of its own client that changes nothing, which PulseAudio answers after the commands and
/// announces after their changes. The batch is done when the first announcement of the bridge's own
/// client after the marker's answer is heard: by then every change of the batch was announced to every
/// subscriber. pipewire-pulse answers a
/// command before it carries it out and announces as its graph goes; there a batch is done once answered.
extension ServerAdapter {
    /// Whether the server has yet to answer a mute or volume sent on the connection, or on the one it
    /// took over from, or to announce what they changed: a fade's next step waits
    /// (``PolicyEngine/stepFades()``).
    public var awaitsLevelCommands: Bool {
        commandLedger.awaited || retiringLedger?.awaited == true
    }

    /// Sends a marker behind the level commands sent since the last one, on PulseAudio. Returns whether
    /// it sent one.
    public func markLevelCommands() -> Bool {
        guard answersOnceCarriedOut, commandLedger.commandsSinceMarker,
              let context, context.state == .ready else { return false }
        let ledger = commandLedger
        ledger.markerSent()
        context.updateOwnProperties { [unowned self] result in
            guard case .failure = result else { return ledger.markerAnswered() }
            ledger.markerRefused()
            levelCommandsSettled(on: ledger)
        }
        return true
    }

    /// Takes a change announced on `connection` of its own client: the markers answered before it are
    /// announced. Returns whether the change was of the connection's own client (nothing to ask about).
    func ownClientChanged(_ change: PulseChange, on connection: PulseContext) -> Bool {
        guard change.facility == .client, change.kind == .change, change.index == connection.clientIndex else { return false }
        let ledger = connection === context ? commandLedger : connection === retiring ? retiringLedger : nil
        if let ledger {
            ledger.ownClientAnnounced()
            levelCommandsSettled(on: ledger)
        }
        return true
    }

    /// The connection that was to answer the level commands is gone: none is awaited any more.
    func forgetUnansweredLevelCommands() {
        let awaited = awaitsLevelCommands
        commandLedger = CommandLedger(capacity: 0)
        retiringLedger = nil
        if awaited { onLevelCommandsSettled() }
    }

    /// A level command sent on `ledger`'s connection was answered.
    func levelCommandAnswered(on ledger: CommandLedger) {
        ledger.answered()
        levelCommandsSettled(on: ledger)
    }

    /// The shell hears when nothing is awaited any more of the level commands on any connection. On
    /// PulseAudio the queries held for first moves (``holdsChangeQueries``) go out then: the server has
    /// carried the moves out, and the questions reach it before those who heard of the change read it.
    private func levelCommandsSettled(on ledger: CommandLedger) {
        guard ledger === commandLedger || ledger === retiringLedger, !awaitsLevelCommands else { return }
        if holdsChangeQueries, holdEndsWithAnswers, answersOnceCarriedOut { holdsChangeQueries = false }
        onLevelCommandsSettled()
    }

    /// Whether the server answers a command once it has carried it out: PulseAudio does; pipewire-pulse
    /// answers first and carries it out as its graph goes.
    private var answersOnceCarriedOut: Bool { cache.server != nil && !isPipeWire }
}
