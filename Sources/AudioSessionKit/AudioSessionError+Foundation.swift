// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

/// The bridge's errors as Foundation sees them, so that code written for AVAudioSession's `NSError`s
/// ports: the domain is `NSOSStatusErrorDomain`, the code is Apple's four-character code
/// (`'!pri'` for `insufficientPriority`, -50 for `badParam`), and the description is the bridge's
/// sentence naming the problem.
extension AudioSessionError: LocalizedError, CustomNSError {
    /// `NSOSStatusErrorDomain`, as AVAudioSession's errors.
    public static var errorDomain: String { NSOSStatusErrorDomain }
    /// Apple's code of the error (`ErrorCode.appleCode`).
    public var errorCode: Int { code.appleCode }
    /// The bridge's sentence naming the problem (`localizedDescription`).
    public var errorDescription: String? { message }
    /// The code's name and its four characters, such as `insufficientPriority (!pri)`.
    public var failureReason: String? { "\(code.rawValue) (\(code.fourCharacterCode))" }
    /// None: the description names what to do where something can be done.
    public var recoverySuggestion: String? { nil }
    /// None.
    public var helpAnchor: String? { nil }
    /// The description and failure reason, under Foundation's keys.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: message, NSLocalizedFailureReasonErrorKey: failureReason ?? code.rawValue]
    }
}

extension ErrorCode {
    /// The code an `NSError` of the bridge carries (`appleCode`), back as a code; nil for others.
    public init?(appleCode: Int) {
        guard let code = Self.allCases.first(where: { $0.appleCode == appleCode }) else { return nil }
        self = code
    }

    /// Apple's code as its four characters (`!pri`), or the number for `badParam`.
    public var fourCharacterCode: String {
        let value = appleCode
        guard value > 0 else { return String(value) }
        let scalars = [24, 16, 8, 0].compactMap { Unicode.Scalar(UInt8((value >> $0) & 0xFF)) }
        return String(String.UnicodeScalarView(scalars))
    }
}
