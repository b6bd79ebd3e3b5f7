// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation

/// An app's connection to the bridge, for tests: blocking method calls, and every signal the bridge
/// sends, recorded in order (read whenever the signals are asked for).
public final class BusClient: @unchecked Sendable {
    public static let bridge = "io.github.audiosession.Bridge1"
    public static let manager = "/io/github/audiosession/Bridge1"
    public static let sessionInterface = "io.github.audiosession.Session1"

    public let connection: BusConnection
    private let lock = NSLock()
    private var received: [BusSignal] = []

    /// A signal as received: path, interface, member, arguments, and when it was read off the bus.
    public struct BusSignal: @unchecked Sendable {
        public var path: String
        public var interface: String
        public var member: String
        public var arguments: [BusValue]
        public var receivedAt = ContinuousClock.now
    }

    /// Connects to the bus at `address`; with `listening` (the default) it records every signal of
    /// the bridge, as an app that follows everything would.
    public init(address: String, listening: Bool = true) throws {
        connection = try BusConnection(.address(address))
        connection.onMessage = { [weak self] message in
            guard let self, message.kind == .signal else { return false }
            let signal = BusSignal(path: message.path ?? "", interface: message.interface ?? "",
                                   member: message.member ?? "", arguments: message.arguments)
            lock.withLock { received.append(signal) }
            return true
        }
        if listening { try connection.addMatch("type='signal',sender='\(Self.bridge)'") }
    }

    deinit { connection.close() }

    public var uniqueName: String { connection.uniqueName }

    /// Calls a method on the bridge and returns its answer; an error reply is thrown as ``BusError``.
    @discardableResult
    public func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try connection.call(.methodCall(destination: Self.bridge, path: path, interface: interface, member: member, arguments),
                            timeout: .seconds(10)).arguments
    }

    /// The error name a call fails with, or nil if it succeeds.
    public func errorName(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []) -> String? {
        do {
            try call(path, interface, member, arguments)
            return nil
        } catch let error as BusError {
            return error.name
        } catch {
            return "\(error)"
        }
    }

    /// `CreateSession`: the session's path and stream token.
    public func createSession(_ app: String, hints: [(String, BusValue)] = []) throws -> (path: String, token: String) {
        let reply = try call(Self.manager, Self.bridge, "CreateSession", [.string(app), .vardict(hints)])
        return (reply[0].stringValue ?? "", reply[1].stringValue ?? "")
    }

    public func setCategory(_ path: String, _ category: String, mode: String = "default", options: [String] = []) throws {
        try call(path, Self.sessionInterface, "SetCategory", [.string(category), .string(mode), .strings(options)])
    }

    public func setActive(_ path: String, _ active: Bool, options: [String] = []) throws {
        try call(path, Self.sessionInterface, "SetActive", [.bool(active), .strings(options)])
    }

    /// A property of an object of the bridge.
    public func property(_ path: String, _ name: String, interface: String = BusClient.sessionInterface) throws -> BusValue {
        let reply = try call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
        if case .variant(let value) = reply[0] { return value }
        return reply[0]
    }

    /// The signals received so far.
    public var signals: [BusSignal] {
        connection.dispatchPending()
        return lock.withLock { received }
    }

    /// Forgets the signals received so far.
    public func forgetSignals() {
        connection.dispatchPending()
        lock.withLock { received = [] }
    }

    /// The signals named `member` from `path`.
    public func signals(_ member: String, from path: String) -> [BusSignal] {
        signals.filter { $0.member == member && $0.path == path }
    }

    /// The `Interruption` signals of a session, as (type, reason, shouldResume).
    public func interruptions(_ path: String) -> [(type: String, reason: String, shouldResume: Bool)] {
        signals("Interruption", from: path).map { signal in
            let info = signal.arguments[1].stringDictionary ?? [:]
            return (signal.arguments[0].stringValue ?? "", info["reason"]?.stringValue ?? "",
                    info["options"]?.stringArray?.contains("shouldResume") ?? false)
        }
    }

    /// The `RouteChange` signals of a session, as (reason, previous route's outputs' port types, inputs' port types).
    public func routeChanges(_ path: String) -> [(reason: String, previousOutputs: [String], previousInputs: [String])] {
        signals("RouteChange", from: path).map { signal in
            let route = signal.arguments[1].structFields ?? []
            func types(_ value: BusValue?) -> [String] {
                value?.arrayItems?.compactMap { $0.stringDictionary?["portType"]?.stringValue } ?? []
            }
            return (signal.arguments[0].stringValue ?? "", types(route.count == 2 ? route[1] : nil),
                    types(route.count == 2 ? route[0] : nil))
        }
    }
}
