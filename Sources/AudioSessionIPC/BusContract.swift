// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import DBusKit

/// The bus contract of INTERFACES.md: names, object paths, signatures and limits.
public enum BusContract {
    /// The bridge's well-known name.
    public static let busName = "io.github.audiosession.Bridge1"
    /// The manager object.
    public static let managerPath = "/io/github/audiosession/Bridge1"
    /// The manager interface.
    public static let managerInterface = "io.github.audiosession.Bridge1"
    /// The session interface.
    public static let sessionInterface = "io.github.audiosession.Session1"

    /// The object path of a session by its number.
    public static func sessionPath(_ number: UInt32) -> String { "\(managerPath)/session/\(number)" }

    /// The session number of an object path, if it is a session's.
    public static func sessionNumber(_ path: String) -> UInt32? {
        let prefix = managerPath + "/session/"
        guard path.hasPrefix(prefix) else { return nil }
        return UInt32(path.dropFirst(prefix.count))
    }

    /// Limits against abuse.
    public enum Limits {
        /// Explicit sessions one connection may hold (more is `ResourceNotAvailable`).
        public static let sessionsPerConnection = 32
        /// The longest string argument (app id, category, uid, …), in bytes (more is `BadParam`).
        public static let stringBytes = 256
        /// The most entries of an array or dictionary argument (more is `BadParam`).
        public static let arrayEntries = 16
    }
}

extension AudioSessionError {
    /// The D-Bus error for this error: `io.github.audiosession.Error.<Name>`.
    public var busError: BusError { BusError(name: code.dbusName, message: message) }

    /// The bridge's error a D-Bus error stands for, if it is one of the bridge's.
    public init?(_ busError: BusError) {
        guard let code = ErrorCode(dbusName: busError.name) else { return nil }
        self.init(code, busError.message)
    }
}
