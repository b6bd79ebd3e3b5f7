// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Reads the server's default devices through a short-lived connection of its own.
///
/// pipewire-pulse keeps the default sink per client connection, and a long-lived connection can keep
/// naming the old default after WirePlumber chose a new one, with no server change event (seen on
/// 0.3.65 and 1.4 when a sink that appeared a moment before became the default: the bridge's
/// connection still answered the old name seconds later while `pactl info` named the new one). On
/// PipeWire the ``ServerAdapter`` therefore takes the defaults from this check: after a server change
/// event, a device that appeared or went, and a stream that moved, and once more a moment later.
final class DefaultDeviceCheck {
    private let loop: PulseLoop
    private let server: String?
    private let answered: (PulseServerInfo) -> Void
    /// The check under way, if any.
    private var context: PulseContext?
    /// Whether another check was asked for while one was under way.
    private var askedAgain = false
    /// The check a moment after the last request, when a session manager reacting to the same change
    /// has settled.
    private lazy var settledCheck = PulseTimer(loop: loop) { [unowned self] in self.check() }

    /// How long after the last request the settling check runs.
    static let settleDelay = Duration.milliseconds(300)

    /// Checks `server`; `answered` gets each reading, on the loop thread.
    init(loop: PulseLoop, server: String?, answered: @escaping (PulseServerInfo) -> Void) {
        self.loop = loop
        self.server = server
        self.answered = answered
    }

    /// Reads the defaults now (or when the check under way has answered) and again after ``settleDelay``.
    func request() {
        check()
        settledCheck.arm(after: Self.settleDelay)
    }

    /// Ends the check under way and forgets the requests.
    func stop() {
        settledCheck.disarm()
        askedAgain = false
        if let context { finish(context) }
    }

    private func check() {
        guard context == nil else {
            askedAgain = true
            return
        }
        guard let context = try? PulseContext(loop: loop, name: "audiosessiond default check", sharedMemory: false) else { return }
        self.context = context
        context.onStateChange = { [unowned self, unowned context] state in
            switch state {
            case .ready:
                context.serverInfo { [unowned self] result in
                    if case .success(let info) = result, context === self.context { answered(info) }
                    finish(context)
                }
            case .failed, .terminated: finish(context)
            default: break
            }
        }
        do { try context.connect(server: server) } catch { finish(context) }
    }

    private func finish(_ context: PulseContext) {
        guard context === self.context else { return }
        self.context = nil
        context.disconnect()
        loop.perform { _ = context }  // released after the callback that finished it has returned
        if askedAgain {
            askedAgain = false
            check()
        }
    }
}
