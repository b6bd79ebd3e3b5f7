// SPDX-License-Identifier: Apache-2.0
/// The error codes of `AVAudioSession.ErrorCode`, plus ``accessDenied``, with their D-Bus names.
public enum ErrorCode: String, VocabularyWord {
    case badParam = "BadParam"
    case cannotInterruptOthers = "CannotInterruptOthers"
    case cannotStartPlaying = "CannotStartPlaying"
    case cannotStartRecording = "CannotStartRecording"
    case expiredSession = "ExpiredSession"
    case incompatibleCategory = "IncompatibleCategory"
    case insufficientPriority = "InsufficientPriority"
    case isBusy = "IsBusy"
    case mediaServicesFailed = "MediaServicesFailed"
    case resourceNotAvailable = "ResourceNotAvailable"
    case sessionNotActive = "SessionNotActive"
    case unspecified = "Unspecified"
    case accessDenied = "AccessDenied"

    public static let vocabularyName = "error code"

    /// The prefix of every error name the bridge returns on the bus.
    public static let dbusPrefix = "io.github.audiosession.Error."

    /// The D-Bus error name, `io.github.audiosession.Error.<Name>`.
    public var dbusName: String { Self.dbusPrefix + rawValue }

    /// The code for a D-Bus error name, or nil when the name is not one of the bridge's.
    public init?(dbusName: String) {
        guard dbusName.hasPrefix(Self.dbusPrefix) else { return nil }
        self.init(rawValue: String(dbusName.dropFirst(Self.dbusPrefix.count)))
    }

    /// Apple's four-character code as an `OSStatus`-style integer (`'!pri'` for insufficientPriority, …).
    public var appleCode: Int {
        let fourCC: String
        switch self {
        case .badParam: return -50
        case .cannotInterruptOthers: fourCC = "!int"
        case .cannotStartPlaying: fourCC = "!pla"
        case .cannotStartRecording: fourCC = "!rec"
        case .expiredSession: fourCC = "!ses"
        case .incompatibleCategory: fourCC = "!cat"
        case .insufficientPriority: fourCC = "!pri"
        case .isBusy: fourCC = "!act"
        case .mediaServicesFailed: fourCC = "msrv"
        case .resourceNotAvailable: fourCC = "!res"
        case .sessionNotActive: fourCC = "inac"
        case .unspecified: fourCC = "what"
        case .accessDenied: fourCC = "!acc"
        }
        return fourCC.unicodeScalars.reduce(0) { $0 << 8 | Int($1.value) }
    }
}

/// An error of the audio-session vocabulary: a code and a sentence that names the problem.
public struct AudioSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which error it is.
    public var code: ErrorCode
    /// One line that names the problem and, where it helps, what to do.
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
