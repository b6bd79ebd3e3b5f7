// SPDX-License-Identifier: Apache-2.0
import AudioPolicy

extension BridgeCore {
    /// Undoes every effect (the engine's shutdown) and calls `reported` once, when the server has read
    /// the commands and reported back every level they set (``PolicyEngine/awaitsReports``). Waiting
    /// for less is not enough: pipewire-pulse drops what a client that has hung up wrote and it had not
    /// read yet, and it answers before PipeWire has applied a level, which a client that hangs up at
    /// once can take with it. `commandsRead` is called when the server has read the commands. On the
    /// loop thread; the caller sets its own deadline.
    public func shutDown(commandsRead: @escaping () -> Void = {}, reported: @escaping () -> Void) {
        var read = false, called = false
        let callOnceReported = { [unowned self] in
            guard read, !called, !engine.awaitsReports else { return }
            called = true
            reported()
        }
        observeSettled { _ in callOnceReported() }
        send(.shutdown)
        adapter.afterPendingCommands {
            read = true
            commandsRead()
            callOnceReported()
        }
    }
}
