// SPDX-License-Identifier: Apache-2.0
import CPulse

/// A connection to a PulseAudio or pipewire-pulse server (`pa_context`). It lives on one
/// ``PulseLoop`` and every method must be called on that loop's thread; completions and callbacks
/// run there too. A context that failed or was terminated is discarded, never reused.
public final class PulseContext: @unchecked Sendable {
    /// The states of `pa_context_state_t`.
    public enum State: Hashable, Sendable {
        case unconnected, connecting, authorizing, settingName, ready, failed, terminated

        init(_ state: pa_context_state_t) {
            switch state {
            case PA_CONTEXT_CONNECTING: self = .connecting
            case PA_CONTEXT_AUTHORIZING: self = .authorizing
            case PA_CONTEXT_SETTING_NAME: self = .settingName
            case PA_CONTEXT_READY: self = .ready
            case PA_CONTEXT_FAILED: self = .failed
            case PA_CONTEXT_TERMINATED: self = .terminated
            default: self = .unconnected
            }
        }

        /// Whether the context is gone for good and must be discarded.
        public var isFinal: Bool { self == .failed || self == .terminated }
    }

    public let loop: PulseLoop
    let pointer: OpaquePointer
    /// Whether the context was made with shared memory (see ``init(loop:name:properties:sharedMemory:)``).
    public let sharesMemory: Bool
    /// Called on every state change.
    public var onStateChange: ((State) -> Void)?
    /// Called for every subscription event.
    public var onChange: ((PulseChange) -> Void)?
    private var callbacksInstalled = false
    /// The requests libpulse has not answered yet, by their boxes (see `OwedAnswer`).
    private var owed: [ObjectIdentifier: OwedAnswer] = [:]
    /// Hears the answer to each command sent with ``send(_:)``: its place's number, and the error when
    /// the server refused it.
    public var onSlotAnswer: ((Int, PulseError?) -> Void)?
    /// The numbered places of commands sent with ``send(_:)``.
    private(set) lazy var slots = CommandSlots(owner: self, capacity: Self.slotCapacity)

    /// Creates a context (`pa_context_new_with_proplist`) with the client name and properties.
    ///
    /// With `sharedMemory` false the context uses no shared memory with the server, and so no shared
    /// ring buffer for its commands either: libpulse 16.1 can hang when a connection dies while it
    /// takes that ring buffer up (see `NoSharedMemoryConfiguration`).
    public init(loop: PulseLoop, name: String, properties: [String: String] = [:], sharedMemory: Bool = true) throws(PulseError) {
        self.loop = loop
        sharesMemory = sharedMemory
        let list = pa_proplist_new()
        defer { pa_proplist_free(list) }
        for (key, value) in properties { pa_proplist_sets(list, key, value) }
        let made = sharedMemory ? pa_context_new_with_proplist(loop.api, name, list)
            : NoSharedMemoryConfiguration.applying { pa_context_new_with_proplist(loop.api, name, list) }
        guard let context = made else {
            throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), operation: "pa_context_new")
        }
        pointer = context
    }

    deinit {
        pa_context_set_state_callback(pointer, nil, nil)
        pa_context_set_subscribe_callback(pointer, nil, nil)
        // A stream of this context's keeps the C context alive: its requests are cancelled now, since
        // their boxes go with this object (a no-op for a context that ended).
        pa_context_disconnect(pointer)
        pa_context_unref(pointer)
    }

    /// The current state (`pa_context_get_state`).
    public var state: State { State(pa_context_get_state(pointer)) }

    /// The server's index of this connection's client (`pa_context_get_index`); nil until it is ready.
    public var clientIndex: UInt32? { CConversion.index(pa_context_get_index(pointer)) }

    /// Connects (`pa_context_connect`) to `server` (a `unix:` path or nil for the default), without
    /// autospawning a server. State changes arrive through ``onStateChange``.
    public func connect(server: String?) throws(PulseError) {
        installCallbacks()
        try PulseError.check(pa_context_connect(pointer, server, PA_CONTEXT_NOAUTOSPAWN, nil), pointer, "connect")
    }

    /// Disconnects (`pa_context_disconnect`) and stops calling back. Requests not yet answered are
    /// dropped with their completions, which are never called; the same happens when the connection fails.
    public func disconnect() {
        onStateChange = nil
        onChange = nil
        pa_context_set_state_callback(pointer, nil, nil)
        pa_context_set_subscribe_callback(pointer, nil, nil)
        pa_context_disconnect(pointer)
        owed.removeAll()
        slots.reset()
    }

    /// Disconnects, and keeps the context until the loop callback that is running has returned (a
    /// callback of this context's own may be on the stack); for a context its owner lets go of.
    public func discard() {
        disconnect()
        loop.perform { _ = self }
    }

    /// Keeps `box` until its answer comes, and gives the pointer libpulse carries for it.
    func owe(_ box: OwedAnswer) -> UnsafeMutableRawPointer {
        owed[ObjectIdentifier(box)] = box
        return Unmanaged.passUnretained(box).toOpaque()
    }

    /// Lets go of `box`: its answer came.
    func settle(_ box: OwedAnswer) { owed[ObjectIdentifier(box)] = nil }

    /// The last error of the context (`pa_context_errno`).
    public var lastError: PulseError { PulseError.fromContext(pointer, "context") }

    private func installCallbacks() {
        guard !callbacksInstalled else { return }
        callbacksInstalled = true
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(pointer, { context, userdata in
            let this = Unmanaged<PulseContext>.fromOpaque(userdata!).takeUnretainedValue()
            let state = State(pa_context_get_state(context))
            this.onStateChange?(state)
            // libpulse cancels the requests of a connection that ended right after this callback, and
            // answers none of them: their completions are dropped, never called.
            if state.isFinal {
                this.owed.removeAll()
                this.slots.reset()
            }
        }, me)
        pa_context_set_subscribe_callback(pointer, { _, type, index, userdata in
            let this = Unmanaged<PulseContext>.fromOpaque(userdata!).takeUnretainedValue()
            guard let change = PulseContext.change(type, index) else { return }
            this.onChange?(change)
        }, me)
    }

    static func change(_ type: pa_subscription_event_type_t, _ index: UInt32) -> PulseChange? {
        let facility: PulseFacility
        switch pa_subscription_event_type_t(type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue) {
        case PA_SUBSCRIPTION_EVENT_SINK: facility = .sink
        case PA_SUBSCRIPTION_EVENT_SOURCE: facility = .source
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT: facility = .sinkInput
        case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT: facility = .sourceOutput
        case PA_SUBSCRIPTION_EVENT_CLIENT: facility = .client
        case PA_SUBSCRIPTION_EVENT_SERVER: facility = .server
        case PA_SUBSCRIPTION_EVENT_CARD: facility = .card
        default: return nil
        }
        let kind: PulseChangeKind
        switch pa_subscription_event_type_t(type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue) {
        case PA_SUBSCRIPTION_EVENT_NEW: kind = .new
        case PA_SUBSCRIPTION_EVENT_REMOVE: kind = .remove
        default: kind = .change
        }
        return PulseChange(facility: facility, kind: kind, index: index)
    }

    /// Subscribes (`pa_context_subscribe`) to changes of the given facilities.
    public func subscribe(to facilities: Set<PulseFacility> = Set(PulseFacility.allCases),
                          completion: @escaping (Result<Void, PulseError>) -> Void) {
        var mask: UInt32 = 0
        for facility in facilities {
            switch facility {
            case .sink: mask |= PA_SUBSCRIPTION_MASK_SINK.rawValue
            case .source: mask |= PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            case .sinkInput: mask |= PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
            case .sourceOutput: mask |= PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue
            case .client: mask |= PA_SUBSCRIPTION_MASK_CLIENT.rawValue
            case .server: mask |= PA_SUBSCRIPTION_MASK_SERVER.rawValue
            case .card: mask |= PA_SUBSCRIPTION_MASK_CARD.rawValue
            }
        }
        let box = SuccessBox(operation: "subscribe", owner: self, completion)
        box.start(pa_context_subscribe(pointer, pa_subscription_mask_t(mask), SuccessBox.callback, box.userdata))
    }
}

extension PulseContext {
    /// The subscription's events as an async sequence, for code that is not on the loop thread.
    /// It replaces ``onChange``; the stream ends when the context is disconnected.
    public func changes() -> AsyncStream<PulseChange> {
        let (stream, continuation) = AsyncStream<PulseChange>.makeStream()
        onChange = { continuation.yield($0) }
        let previous = onStateChange
        onStateChange = { state in
            previous?(state)
            if state.isFinal { continuation.finish() }
        }
        return stream
    }
}
