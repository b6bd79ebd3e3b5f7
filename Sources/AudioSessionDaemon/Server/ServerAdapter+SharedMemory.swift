// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// The bridge's connection and the server's shared memory.
///
/// A client with shared memory gets PulseAudio's shared ring buffer (srbchannel) for its commands, and
/// the server then takes all the commands waiting there in one turn of its loop. Over the socket alone
/// it takes one packet per turn: the ten mutes of a call next to ten music streams were made over
/// about a millisecond, each with a turn of the sink's thread and an announcement to every subscriber
/// in between, where with the ring buffer they are made together (see docs/DECISIONS.md).
///
/// libpulse 16.1 can spin forever when the server goes away while a connection switches to that ring
/// buffer, right after the handshake: when the server is gone before the client has taken in the
/// ring buffer it was sent, the switch stays pending and `pa_pstream_unlink` loops on it. A server that
/// has just come back, or just started with the desktop, is the one most likely to go away again while
/// the bridge connects (the reliability runs restart it over and over, and one that died within
/// milliseconds of a new bridge's first connection left that bridge stuck). So no connection the
/// bridge makes shares memory at first, and a connection with shared memory takes over once the server
/// has stayed up for ``sharedMemoryDelay``: it subscribes first, the old one stays until its last
/// answers are in, and the engine sees nothing of the change.
extension ServerAdapter {
    /// How long a server must stay up before the bridge's connection takes up its shared memory.
    public static let sharedMemoryDelay = Duration.seconds(30)

    /// The `application.id` the bridge's connections and streams carry.
    public static let clientApplicationID = "io.github.audiosession.Bridge1"

    /// A context of the bridge's, not yet connected.
    func makeContext(sharedMemory: Bool) throws(PulseError) -> PulseContext {
        try PulseContext(loop: loop, name: "audiosessiond", properties: ["application.id": Self.clientApplicationID],
                         sharedMemory: sharedMemory)
    }

    /// After the server was read: plans the takeover when the connection shares no memory but may.
    /// pipewire-pulse offers no ring buffer, so there it is not worth a connection.
    func scheduleSharedMemoryUpgrade() {
        guard let sharedMemoryDelay, context?.sharesMemory == false, !isPipeWire, upgrading == nil else { return }
        upgradeTimer.arm(after: sharedMemoryDelay)
    }

    /// Connects the connection with shared memory; it takes over once it is subscribed.
    func beginSharedMemoryUpgrade() {
        guard isConnected, upgrading == nil, context != nil, let fresh = try? makeContext(sharedMemory: true) else { return }
        upgrading = fresh
        fresh.onStateChange = { [unowned self, unowned fresh] state in
            guard fresh === upgrading else { return }
            switch state {
            case .ready:
                fresh.subscribe { [unowned self] result in
                    guard fresh === upgrading else { return }
                    if case .failure = result { abandonSharedMemoryUpgrade() } else { takeOver(from: fresh) }
                }
            case .failed, .terminated: abandonSharedMemoryUpgrade()
            default: break
            }
        }
        do { try fresh.connect(server: server) } catch { abandonSharedMemoryUpgrade() }
    }

    /// The subscribed connection becomes the bridge's. The old one goes on delivering its events (those
    /// the server sent before the new one subscribed may still be unread) and its answers until a
    /// last round trip, then it is disconnected.
    private func takeOver(from fresh: PulseContext) {
        // A lost connection or a stop ends the takeover first, so the old connection is there.
        guard let old = context else { return abandonSharedMemoryUpgrade(again: false) }
        upgrading = nil
        retiringLedger = commandLedger
        adopt(fresh)
        retiring = old
        old.onStateChange = { [unowned self, unowned old] state in
            guard state == .failed || state == .terminated, old === retiring else { return }
            retire(old)
            if self.context?.state == .ready { retiringConnectionFailed() }
        }
        old.serverInfo { [unowned self] _ in self.retire(old) }
    }

    /// Whether answers on `context` still count: it is the connection, or the one it took over from.
    func isCurrent(_ context: PulseContext) -> Bool { context === self.context || context === retiring }

    /// Disconnects the connection that was taken over from, once.
    private func retire(_ old: PulseContext) {
        guard old === retiring else { return }
        retiring = nil
        old.discard()
        // Its answers are in (a last round trip), or it failed and they will not come.
        let awaited = retiringLedger?.awaited == true
        retiringLedger = nil
        if awaited && !awaitsLevelCommands { onLevelCommandsSettled() }
    }

    /// The connection with shared memory failed: the current one stays, and with `again` the takeover
    /// is tried again later.
    private func abandonSharedMemoryUpgrade(again: Bool = true) {
        guard let fresh = upgrading else { return }
        upgrading = nil
        fresh.discard()
        if again && isConnected { scheduleSharedMemoryUpgrade() }
    }

    /// Ends a takeover under way and the retiring connection (the server is gone, or the bridge stops).
    func endSharedMemoryUpgrade() {
        upgradeTimer.disarm()
        abandonSharedMemoryUpgrade(again: false)
        if let old = retiring { retire(old) }
    }
}
