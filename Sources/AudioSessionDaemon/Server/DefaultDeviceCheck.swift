// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Reads the server's default devices through a short-lived connection of its own.
///
/// pipewire-pulse keeps the default sink per client connection, and a long-lived connection can keep
/// naming the old default after WirePlumber chose a new one, with no server change event (seen on
/// 0.3.65 and 1.4 when a sink that appeared a moment before became the default: the bridge's
/// connection still answered the old name seconds later while `pactl info` named the new one). On
/// PipeWire the ``ServerAdapter`` therefore takes the defaults from this check: after a server change
/// event, a device that appeared or went, and a stream that moved, and again 0.3, 1 and 3 s after the
/// last of these (a session manager on a busy machine may take a while to choose).
final class DefaultDeviceCheck {
    private let loop: PulseLoop
    private let server: String?
    private let answered: (PulseServerInfo) -> Void
    /// The check under way, if any.
    private var connection: ErrandConnection?
    /// Whether another check was asked for while one was under way.
    private var askedAgain = false
    /// The checks after the last request, when a session manager reacting to the same change may have
    /// settled; each arms the next.
    private lazy var followUpCheck = PulseTimer(loop: loop) { [unowned self] in self.followUp() }
    /// The follow-up checks done since the last request.
    private var followUpsDone = 0

    /// How long after the last request the follow-up checks run.
    static let followUpDelays: [Duration] = [.milliseconds(300), .seconds(1), .seconds(3)]

    /// Checks `server`; `answered` gets each reading, on the loop thread.
    init(loop: PulseLoop, server: String?, answered: @escaping (PulseServerInfo) -> Void) {
        self.loop = loop
        self.server = server
        self.answered = answered
    }

    /// Reads the defaults now (or when the check under way has answered) and again after each of
    /// ``followUpDelays``.
    func request() {
        check()
        followUpsDone = 0
        followUpCheck.arm(after: Self.followUpDelays[0])
    }

    private func followUp() {
        check()
        followUpsDone += 1
        guard followUpsDone < Self.followUpDelays.count else { return }
        followUpCheck.arm(after: Self.followUpDelays[followUpsDone] - Self.followUpDelays[followUpsDone - 1])
    }

    /// Ends the check under way and forgets the requests.
    func stop() {
        followUpCheck.disarm()
        askedAgain = false
        connection?.end()
    }

    private func check() {
        guard connection == nil else {
            askedAgain = true
            return
        }
        connection = ErrandConnection(loop: loop, server: server, name: "audiosessiond default check", errand: {
            [unowned self] context, done in
            context.serverInfo { [unowned self] result in
                if case .success(let info) = result { answered(info) }
                done()
            }
        }, ended: { [unowned self] _, _ in
            connection = nil
            if askedAgain {
                askedAgain = false
                check()
            }
        })
    }
}
