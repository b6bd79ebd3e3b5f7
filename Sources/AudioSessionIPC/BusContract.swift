import AudioSessionModel
import DBusKit

/// The bus contract of INTERFACES.md: names, object paths, signatures, error names, the
/// introspection XML and the codecs between the model's values and D-Bus messages.
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
}
