// SPDX-License-Identifier: Apache-2.0
import CPulse

/// A libpulse failure: the error code, `pa_strerror`'s text and the operation that failed.
public struct PulseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `pa_error_code_t` value.
    public var code: Int32
    /// `pa_strerror(code)`.
    public var message: String
    /// What was being done ("connect", "set sink-input volume", …).
    public var operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        message = String(cString: pa_strerror(code))
    }

    /// The object does not exist (`PA_ERR_NOENTITY`).
    public var isNoSuchEntity: Bool { code == Int32(PA_ERR_NOENTITY.rawValue) }


    public var description: String { "\(operation): \(message)" }

    /// The choke point for every libpulse call that reports failure through the context's errno.
    static func fromContext(_ context: OpaquePointer?, _ operation: String) -> PulseError {
        PulseError(code: context.map { pa_context_errno($0) } ?? Int32(PA_ERR_UNKNOWN.rawValue), operation: operation)
    }

    /// Turns a negative libpulse return value into a thrown error.
    static func check(_ result: Int32, _ context: OpaquePointer?, _ operation: String) throws(PulseError) {
        if result < 0 { throw fromContext(context, operation) }
    }
}
