// SPDX-License-Identifier: Apache-2.0
import CPulse

/// Carries a command's completion through libpulse's `void *userdata` and back (success callbacks).
final class SuccessBox {
    let operation: String
    let context: OpaquePointer
    let completion: (Result<Void, PulseError>) -> Void

    init(operation: String, context: OpaquePointer, _ completion: @escaping (Result<Void, PulseError>) -> Void) {
        self.operation = operation
        self.context = context
        self.completion = completion
    }

    /// A retained pointer to this box, released by the callback.
    var userdata: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// Unrefs the operation, or completes with the context's error when there is none.
    func start(_ operation: OpaquePointer?) {
        if let operation {
            pa_operation_unref(operation)
        } else {
            Unmanaged.passUnretained(self).release()
            completion(.failure(PulseError.fromContext(context, self.operation)))
        }
    }

    static let callback: pa_context_success_cb_t = { context, success, userdata in
        let box = Unmanaged<SuccessBox>.fromOpaque(userdata!).takeRetainedValue()
        box.completion(success != 0 ? .success(()) : .failure(PulseError.fromContext(context, box.operation)))
    }
}

/// Collects the items of an info-list callback until its end, through libpulse's `void *userdata`.
class InfoCollector {
    let operation: String
    let context: OpaquePointer

    init(operation: String, context: OpaquePointer) {
        self.operation = operation
        self.context = context
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    func add(_ item: Any) {}
    func finish(_ error: PulseError?) {}

    /// Unrefs the operation, or finishes with the context's error when there is none.
    func start(_ operation: OpaquePointer?) {
        if let operation {
            pa_operation_unref(operation)
        } else {
            Unmanaged.passUnretained(self).release()
            finish(PulseError.fromContext(context, self.operation))
        }
    }

    /// Called by each C callback with `eol` and the converted item (if any).
    static func receive(_ userdata: UnsafeMutableRawPointer?, _ eol: Int32, _ item: Any?) {
        let unmanaged = Unmanaged<InfoCollector>.fromOpaque(userdata!)
        let collector = unmanaged.takeUnretainedValue()
        if eol == 0 {
            if let item { collector.add(item) }
            return
        }
        unmanaged.release()
        collector.finish(eol < 0 ? PulseError.fromContext(collector.context, collector.operation) : nil)
    }
}

final class TypedCollector<Item>: InfoCollector {
    private var items: [Item] = []
    private let completion: (Result<[Item], PulseError>) -> Void

    init(operation: String, context: OpaquePointer, _ completion: @escaping (Result<[Item], PulseError>) -> Void) {
        self.completion = completion
        super.init(operation: operation, context: context)
    }

    override func add(_ item: Any) {
        if let item = item as? Item { items.append(item) }
    }

    override func finish(_ error: PulseError?) {
        completion(error.map { .failure($0) } ?? .success(items))
    }
}

/// Carries an index callback's completion (`pa_context_index_cb_t`).
final class IndexBox {
    let operation: String
    let context: OpaquePointer
    let completion: (Result<UInt32, PulseError>) -> Void

    init(operation: String, context: OpaquePointer, _ completion: @escaping (Result<UInt32, PulseError>) -> Void) {
        self.operation = operation
        self.context = context
        self.completion = completion
    }
}
