// SPDX-License-Identifier: Apache-2.0
import CDBus
import Glibc

/// A connection to a message bus (`DBusConnection`, private). Attach it to a ``BusEventLoop`` (the
/// daemon's libpulse loop, or a client's ``BusThreadLoop``), or poll it with ``dispatchPending()``.
public final class BusConnection: @unchecked Sendable {
    /// Which bus to connect to.
    public enum Address: Hashable, Sendable {
        case session
        case system
        case address(String)
    }

    let pointer: OpaquePointer
    /// Called for every incoming message that is not a reply to a blocking call; return true when handled.
    public var onMessage: ((BusMessage) -> Bool)?
    private var loop: (any BusEventLoop)?
    private var dispatcher: (any BusLoopDeferred)?
    private var stopping = false
    private static let threadsReady: Bool = { dbus_threads_init_default() != 0 }()

    /// Connects and registers with the bus (`dbus_connection_open_private`, `dbus_bus_register`).
    public init(_ address: Address) throws(BusError) {
        _ = Self.threadsReady
        let target: String
        switch address {
        case .address(let value): target = value
        case .session: target = try Self.sessionBusAddress()
        case .system:
            target = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
                ?? "unix:path=/var/run/dbus/system_bus_socket"
        }
        guard let connection = try BusError.check({ dbus_connection_open_private(target, $0) }) else {
            throw BusError.failed("could not connect to \(target)")
        }
        pointer = connection
        dbus_connection_set_exit_on_disconnect(connection, 0)
        do {
            _ = try BusError.check { dbus_bus_register(connection, $0) }
        } catch {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw error
        }
        dbus_connection_add_filter(connection, { _, message, userdata in
            let this = Unmanaged<BusConnection>.fromOpaque(userdata!).takeUnretainedValue()
            guard let message, let handler = this.onMessage else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            return handler(BusMessage(retaining: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit { close() }

    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket exists
    /// (as sd-bus and GDBus do for ssh, su and cron, where the variable is unset).
    static func sessionBusAddress() throws(BusError) -> String {
        let environment = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        if let address = environment("DBUS_SESSION_BUS_ADDRESS") { return address }
        if let runtime = environment("XDG_RUNTIME_DIR") {
            var status = stat()
            let socket = runtime + "/bus"
            if stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { return "unix:path=" + socket }
        }
        throw BusError(name: "org.freedesktop.DBus.Error.NoServer",
                       message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
    }

    /// The connection's unique name (`dbus_bus_get_unique_name`).
    public var uniqueName: String { dbus_bus_get_unique_name(pointer).map { String(cString: $0) } ?? "" }

    /// Whether the connection is still open (`dbus_connection_get_is_connected`).
    public var isConnected: Bool { dbus_connection_get_is_connected(pointer) != 0 }

    /// The connection's socket, for a client that waits on it together with other descriptors
    /// (`poll`) and then calls ``dispatchPending(waitingUpTo:)``.
    public var socketDescriptor: Int32? {
        var descriptor: Int32 = -1
        return dbus_connection_get_unix_fd(pointer, &descriptor) != 0 ? descriptor : nil
    }

    /// Asks for a well-known name without queueing (`dbus_bus_request_name`); true when it is ours.
    public func requestName(_ name: String) throws(BusError) -> Bool {
        let result = try BusError.check { dbus_bus_request_name(pointer, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), $0) }
        return result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER
    }

    /// Adds a match rule (`dbus_bus_add_match`).
    public func addMatch(_ rule: String) throws(BusError) {
        try BusError.check { dbus_bus_add_match(pointer, rule, $0) }
    }

    /// Queues a message (`dbus_connection_send`).
    public func send(_ message: BusMessage) {
        dbus_connection_send(pointer, message.pointer, nil)
    }

    /// Writes out everything queued (`dbus_connection_flush`).
    public func flush() { dbus_connection_flush(pointer) }

    /// Sends a method call and waits for its reply (`dbus_connection_send_with_reply_and_block`);
    /// an error reply is thrown.
    public func call(_ message: BusMessage, timeout: Duration = .seconds(25)) throws(BusError) -> BusMessage {
        let milliseconds = Self.milliseconds(timeout)
        guard let reply = try BusError.check({
            dbus_connection_send_with_reply_and_block(pointer, message.pointer, milliseconds, $0)
        }) else {
            throw BusError.failed("no reply")
        }
        return BusMessage(taking: reply)
    }

    /// Sends a method call and calls `completion` with its reply on the connection's loop
    /// (`dbus_connection_send_with_reply`, `dbus_pending_call_set_notify`); an error reply is a failure.
    public func call(_ message: BusMessage, timeout: Duration = .seconds(25),
                     completion: @escaping (Result<BusMessage, BusError>) -> Void) {
        let milliseconds = Self.milliseconds(timeout)
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(pointer, message.pointer, &pending, milliseconds) != 0, let pending else {
            return completion(.failure(.failed("the connection is closed")))
        }
        let box = Unmanaged.passRetained(ReplyBox(completion)).toOpaque()
        dbus_pending_call_set_notify(pending, { pending, userdata in
            let box = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeUnretainedValue()
            guard let pending, let raw = dbus_pending_call_steal_reply(pending) else {
                return box.completion(.failure(.failed("no reply")))
            }
            let reply = BusMessage(taking: raw)
            box.completion(reply.asError.map { .failure($0) } ?? .success(reply))
        }, box, { Unmanaged<ReplyBox>.fromOpaque($0!).release() })
        dbus_pending_call_unref(pending)
    }

    /// A timeout as libdbus takes it.
    static func milliseconds(_ timeout: Duration) -> Int32 {
        Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Closes the connection (`dbus_connection_close`). Safe to call twice.
    public func close() {
        guard !stopping else { return }
        stopping = true
        dbus_connection_set_watch_functions(pointer, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(pointer, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(pointer, nil, nil, nil)
        dispatcher?.cancel()
        dispatcher = nil
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }

    // MARK: Running

    /// Reads what has arrived and dispatches it to ``onMessage`` (`dbus_connection_read_write`,
    /// `dbus_connection_dispatch`), waiting up to `timeout` for something to arrive: for a client
    /// without a loop of its own.
    public func dispatchPending(waitingUpTo timeout: Duration = .zero) {
        dbus_connection_read_write(pointer, Self.milliseconds(timeout))
        while dbus_connection_dispatch(pointer) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// Attaches the connection's watches, timeouts and dispatching to `loop`. Everything then runs on
    /// the loop's thread.
    public func attach(to loop: any BusEventLoop) {
        precondition(self.loop == nil, "a connection runs on one loop")
        self.loop = loop
        let me = Unmanaged.passUnretained(self).toOpaque()
        dispatcher = loop.addDeferred { [unowned self] in self.dispatchAll() }
        dbus_connection_set_watch_functions(pointer, { watch, userdata in
            Unmanaged<BusConnection>.fromOpaque(userdata!).takeUnretainedValue().addWatch(watch!)
        }, { watch, _ in
            WatchBox.from(watch)?.handle.cancel()
        }, { watch, _ in
            WatchBox.from(watch)?.update()
        }, me, nil)
        dbus_connection_set_timeout_functions(pointer, { timeout, userdata in
            Unmanaged<BusConnection>.fromOpaque(userdata!).takeUnretainedValue().addTimeout(timeout!)
        }, { timeout, _ in
            TimeoutBox.from(timeout)?.handle.cancel()
        }, { timeout, _ in
            TimeoutBox.from(timeout)?.update()
        }, me, nil)
        dbus_connection_set_dispatch_status_function(pointer, { _, status, userdata in
            let this = Unmanaged<BusConnection>.fromOpaque(userdata!).takeUnretainedValue()
            this.dispatcher?.setEnabled(status == DBUS_DISPATCH_DATA_REMAINS)
        }, me, nil)
        dispatcher?.setEnabled(dbus_connection_get_dispatch_status(pointer) == DBUS_DISPATCH_DATA_REMAINS)
    }

    private func dispatchAll() {
        while dbus_connection_dispatch(pointer) == DBUS_DISPATCH_DATA_REMAINS {}
        dispatcher?.setEnabled(false)
    }

    private func addWatch(_ watch: OpaquePointer) -> dbus_bool_t {
        guard let loop else { return 0 }
        let box = WatchBox(watch: watch)
        let flags = dbus_watch_get_flags(watch)
        box.handle = loop.addWatch(fd: dbus_watch_get_unix_fd(watch),
                                   readable: flags & DBUS_WATCH_READABLE.rawValue != 0,
                                   writable: flags & DBUS_WATCH_WRITABLE.rawValue != 0) { [unowned self] readable, writable in
            var handled: UInt32 = 0
            if readable { handled |= DBUS_WATCH_READABLE.rawValue }
            if writable { handled |= DBUS_WATCH_WRITABLE.rawValue }
            dbus_watch_handle(watch, handled)
            self.dispatcher?.setEnabled(dbus_connection_get_dispatch_status(self.pointer) == DBUS_DISPATCH_DATA_REMAINS)
        }
        dbus_watch_set_data(watch, Unmanaged.passRetained(box).toOpaque()) { Unmanaged<WatchBox>.fromOpaque($0!).release() }
        box.update()
        return 1
    }

    private func addTimeout(_ timeout: OpaquePointer) -> dbus_bool_t {
        guard let loop else { return 0 }
        let box = TimeoutBox(timeout: timeout)
        box.handle = loop.addTimer {
            dbus_timeout_handle(timeout)
            box.update()
        }
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(box).toOpaque()) { Unmanaged<TimeoutBox>.fromOpaque($0!).release() }
        box.update()
        return 1
    }
}

/// A libdbus watch and the loop watch that serves it (`dbus_watch_get_data`).
final class WatchBox {
    let watch: OpaquePointer
    var handle: (any BusLoopWatch)!

    init(watch: OpaquePointer) { self.watch = watch }

    static func from(_ watch: OpaquePointer?) -> WatchBox? {
        guard let watch, let data = dbus_watch_get_data(watch) else { return nil }
        return Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
    }

    func update() {
        let enabled = dbus_watch_get_enabled(watch) != 0
        let flags = dbus_watch_get_flags(watch)
        handle.setEnabled(readable: enabled && flags & DBUS_WATCH_READABLE.rawValue != 0,
                          writable: enabled && flags & DBUS_WATCH_WRITABLE.rawValue != 0)
    }
}

/// A libdbus timeout and the loop timer that serves it (`dbus_timeout_get_data`).
final class TimeoutBox {
    let timeout: OpaquePointer
    var handle: (any BusLoopTimer)!

    init(timeout: OpaquePointer) { self.timeout = timeout }

    static func from(_ timeout: OpaquePointer?) -> TimeoutBox? {
        guard let timeout, let data = dbus_timeout_get_data(timeout) else { return nil }
        return Unmanaged<TimeoutBox>.fromOpaque(data).takeUnretainedValue()
    }

    func update() {
        if dbus_timeout_get_enabled(timeout) != 0 {
            handle.arm(after: .milliseconds(Int(dbus_timeout_get_interval(timeout))))
        } else {
            handle.disarm()
        }
    }
}

/// Carries an asynchronous call's completion through libdbus's `void *` user data.
final class ReplyBox {
    let completion: (Result<BusMessage, BusError>) -> Void
    init(_ completion: @escaping (Result<BusMessage, BusError>) -> Void) { self.completion = completion }
}
