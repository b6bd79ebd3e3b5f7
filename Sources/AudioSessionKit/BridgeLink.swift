// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import AudioSessionModel
import DBusKit
import Foundation

/// The library's connection to the bridge. It lives on its own loop thread: signals arrive there,
/// and calls from app threads are handed over and waited for. When the bus or the bridge is absent it
/// keeps trying in the background.
final class BridgeLink: @unchecked Sendable {
    let loop = BusThreadLoop()
    private let address: BusConnection.Address
    private var connection: BusConnection?
    private lazy var retryTimer = loop.addTimer { [weak self] in self?.connect() }
    /// Whether the bridge owns its name now (loop thread).
    private(set) var bridgePresent = false

    /// A signal from the bridge (loop thread).
    var onSignal: (BusMessage) -> Void = { _ in }
    /// The bridge appeared (true) or went away (false) (loop thread).
    var onBridgePresence: (Bool) -> Void = { _ in }

    init(address: BusConnection.Address) {
        self.address = address
    }

    /// Closes the connection and ends the loop's thread; not from the loop thread.
    func shutDown() {
        loop.perform { [self] in
            connection?.close()
            connection = nil
            retryTimer.cancel()
        }
        loop.stop()
    }

    /// Starts the loop and connects; set the handlers first.
    func start() {
        loop.start()
        loop.perform { [self] in connect() }
    }

    private func connect() {
        guard connection == nil else { return }
        do {
            let connection = try BusConnection(address)
            connection.attach(to: loop)
            connection.onMessage = { [weak self] message in self?.received(message) ?? false }
            try connection.addMatch("type='signal',sender='\(BusContract.busName)'")
            try connection.addMatch(BusDriver.nameOwnerChangedRule + ",arg0='\(BusContract.busName)'")
            self.connection = connection
            connection.call(.methodCall(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.name,
                                        member: "NameHasOwner", [.string(BusContract.busName)])) { [weak self] result in
                guard let self else { return }
                let present = (try? result.get())?.arguments.first?.boolValue ?? false
                if present != bridgePresent {
                    bridgePresent = present
                    onBridgePresence(present)
                }
            }
        } catch {
            retryTimer.arm(after: .seconds(1))
        }
    }

    private func received(_ message: BusMessage) -> Bool {
        if let change = BusDriver.nameOwnerChange(message), change.name == BusContract.busName {
            let present = !change.newOwner.isEmpty
            if present != bridgePresent || (present && !change.oldOwner.isEmpty) {
                if bridgePresent && present { onBridgePresence(false) }  // replaced in one step
                bridgePresent = present
                onBridgePresence(present)
            }
            return true
        }
        guard message.kind == .signal else { return false }
        if !(connection?.isConnected ?? false) {
            connection = nil
            retryTimer.arm(after: .seconds(1))
        }
        onSignal(message)
        return true
    }

    /// Calls a method of the bridge from an app thread and waits for the answer. The bridge's errors
    /// come back as ``AudioSessionError``; an absent bridge is ``ErrorCode/mediaServicesFailed``.
    /// `onReply` sees a successful answer on the loop thread, in order with the signals around it.
    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = [],
              timeout: Duration = .seconds(10), onReply: (@Sendable ([BusValue]) -> Void)? = nil) throws(AudioSessionError) -> [BusValue]
    {
        precondition(!loop.isOnLoopThread, "AudioSession calls cannot be made from the library's own thread")
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        loop.perform { [self] in
            guard let connection, connection.isConnected else {
                outcome.result = .failure(BusError(name: "org.freedesktop.DBus.Error.NoServer", message: "no session bus"))
                done.signal()
                return
            }
            connection.call(.methodCall(destination: BusContract.busName, path: path, interface: interface,
                                        member: member, arguments), timeout: timeout) { result in
                outcome.result = result.map(\.arguments)
                if case .success(let values) = outcome.result { onReply?(values) }
                done.signal()
            }
        }
        done.wait()
        switch outcome.result! {
        case .success(let values): return values
        case .failure(let error):
            if let known = AudioSessionError(error) { throw known }
            throw AudioSessionError(
                .mediaServicesFailed,
                "the audio-session bridge (\(BusContract.busName)) is not reachable: \(error.message); start audiosessiond")
        }
    }

    private final class Outcome: @unchecked Sendable {
        var result: Result<[BusValue], BusError>?
    }
}
