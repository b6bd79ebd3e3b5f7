// SPDX-License-Identifier: Apache-2.0
import CPulse

/// A request's completion, carried through libpulse's `void *userdata` and back.
///
/// The context it was asked on keeps it (``PulseContext/owe(_:)``) until libpulse answers. A
/// connection that fails or is disconnected cancels its requests without calling back, and the context
/// then lets go of their boxes: a box passed to libpulse as a retained pointer would stay forever, with
/// everything its completion holds (the context itself often, and with it the server's shared memory).
class OwedAnswer {
    let operation: String
    unowned let owner: PulseContext

    init(operation: String, owner: PulseContext) {
        self.operation = operation
        self.owner = owner
    }

    /// The pointer libpulse carries; the box stays alive in its context's ledger.
    var userdata: UnsafeMutableRawPointer { owner.owe(self) }

    /// The context's error now, named after this request.
    func error(_ context: OpaquePointer?) -> PulseError { PulseError.fromContext(context ?? owner.pointer, operation) }

    /// Unrefs the operation, or fails at once when libpulse refused to start it.
    func start(_ operation: OpaquePointer?) {
        if let operation {
            pa_operation_unref(operation)
        } else {
            owner.settle(self)
            fail(error(nil))
        }
    }

    /// Completes with `error`; each kind of box says how.
    func fail(_ error: PulseError) {}

    /// The box behind `userdata`, taken off its context's ledger: its answer has come.
    static func answered<Box: OwedAnswer>(_ userdata: UnsafeMutableRawPointer?) -> Box {
        let box = Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue()
        box.owner.settle(box)
        return box
    }
}

/// Carries a command's completion (success callbacks).
final class SuccessBox: OwedAnswer {
    let completion: (Result<Void, PulseError>) -> Void

    init(operation: String, owner: PulseContext, _ completion: @escaping (Result<Void, PulseError>) -> Void) {
        self.completion = completion
        super.init(operation: operation, owner: owner)
    }

    override func fail(_ error: PulseError) { completion(.failure(error)) }

    static let callback: pa_context_success_cb_t = { context, success, userdata in
        let box: SuccessBox = answered(userdata)
        box.completion(success != 0 ? .success(()) : .failure(box.error(context)))
    }
}

/// Carries an index callback's completion (`pa_context_index_cb_t`).
final class IndexBox: OwedAnswer {
    let completion: (Result<UInt32, PulseError>) -> Void

    init(operation: String, owner: PulseContext, _ completion: @escaping (Result<UInt32, PulseError>) -> Void) {
        self.completion = completion
        super.init(operation: operation, owner: owner)
    }

    override func fail(_ error: PulseError) { completion(.failure(error)) }

    static let callback: pa_context_index_cb_t = { context, index, userdata in
        let box: IndexBox = answered(userdata)
        box.completion(index == cpulse_invalid_index() ? .failure(box.error(context)) : .success(index))
    }
}

/// Collects the items of an info-list callback until its end.
class InfoCollector: OwedAnswer {
    /// The only properties to read from the items, when the request names them.
    var keys: [String]?

    func add(_ item: Any) {}

    /// As ``receive(_:_:_:)``, with the item made with the properties the request reads.
    static func receive(_ userdata: UnsafeMutableRawPointer?, _ eol: Int32, making make: (_ keys: [String]?) -> Any?) {
        guard eol == 0 else { return receive(userdata, eol, nil) }
        let collector = Unmanaged<InfoCollector>.fromOpaque(userdata!).takeUnretainedValue()
        receive(userdata, eol, make(collector.keys))
    }

    /// Called by each C callback with `eol` and the converted item (if any).
    static func receive(_ userdata: UnsafeMutableRawPointer?, _ eol: Int32, _ item: Any?) {
        if eol == 0 {
            let collector = Unmanaged<InfoCollector>.fromOpaque(userdata!).takeUnretainedValue()
            if let item { collector.add(item) }
            return
        }
        let collector: InfoCollector = answered(userdata)
        eol < 0 ? collector.fail(collector.error(nil)) : collector.finish()
    }

    func finish() {}
}

final class TypedCollector<Item>: InfoCollector {
    private var items: [Item] = []
    private let completion: (Result<[Item], PulseError>) -> Void

    init(operation: String, owner: PulseContext, _ completion: @escaping (Result<[Item], PulseError>) -> Void) {
        self.completion = completion
        super.init(operation: operation, owner: owner)
    }

    override func add(_ item: Any) {
        if let item = item as? Item { items.append(item) }
    }

    override func finish() { completion(.success(items)) }
    override func fail(_ error: PulseError) { completion(.failure(error)) }
}
