// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// A short-lived server connection of the bridge's own for one errand: it connects, hands the ready
/// context to the errand, and disconnects once the errand says it is done or the connection fails.
/// pipewire-pulse keeps some state per connection (the default devices) that a new connection reads
/// fresh; the default check and some moves on PipeWire need that. Use it on the loop thread, and keep
/// it until `ended` is called.
final class ErrandConnection {
    private let context: PulseContext
    private let ended: (ErrandConnection, _ ran: Bool) -> Void
    private var ran = false
    private var isOver = false

    /// Connects to `server` as `name`; `errand` gets the ready context and a function to call when it
    /// is done; `ended` gets the connection and whether the errand ran (false: the connection failed
    /// first). Nil when no connection could even be started.
    init?(loop: PulseLoop, server: String?, name: String,
          errand: @escaping (PulseContext, _ done: @escaping () -> Void) -> Void,
          ended: @escaping (ErrandConnection, _ ran: Bool) -> Void) {
        guard let context = try? PulseContext(loop: loop, name: name, sharedMemory: false) else { return nil }
        self.context = context
        self.ended = ended
        context.onStateChange = { [unowned self, unowned context] state in
            switch state {
            case .ready:
                ran = true
                errand(context) { [weak self] in self?.end() }
            case .failed, .terminated: end()
            default: break
            }
        }
        do { try context.connect(server: server) } catch { return nil }
    }

    /// Disconnects (if not yet done) and tells the owner, once.
    func end() {
        guard !isOver else { return }
        isOver = true
        context.discard()
        ended(self, ran)
    }
}
