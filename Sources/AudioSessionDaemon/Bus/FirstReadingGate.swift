// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Holds the method calls that come before the bridge has read the sound server for the first time.
///
/// The bridge owns its bus name from its start (so that D-Bus activation and a second bridge's error
/// work at once), but until it has read the server it knows no device: a session created then would
/// report a route with no outputs, no sample rate and no volume, and an app that reads them once (as
/// most do right after `CreateSession`) would keep those. So calls wait, in the order they came, until
/// the server has been read, or at most ``longestWait`` when it does not answer (the bridge then
/// serves without one, as after a lost server). Runs on the loop thread.
final class FirstReadingGate {
    /// The calls waiting; nil once the gate is open.
    private var held: [() -> Void]? = []
    private lazy var deadline = PulseTimer(loop: loop) { [unowned self] in self.open() }
    private let loop: PulseLoop

    /// How long calls wait for a server that does not answer.
    static let longestWait = Duration.seconds(2)

    init(loop: PulseLoop) { self.loop = loop }

    /// Starts the wait for a server that does not answer; on the loop thread.
    func startWaiting() {
        if held != nil { deadline.arm(after: Self.longestWait) }
    }

    /// Runs `body` now when the server has been read, or once it is.
    func whenOpen(_ body: @escaping () -> Void) {
        if held == nil { return body() }
        held?.append(body)
    }

    /// The server has been read (or the wait is over): the held calls are served, in order.
    func open() {
        guard let bodies = held else { return }
        held = nil
        deadline.disarm()
        bodies.forEach { $0() }
    }
}
