import CDBus

/// The typed wrapper of libdbus: connections (session, system or address) and names, marshalling of
/// every type the bridge's contract uses, exported objects with Introspectable and Properties, method
/// dispatch that knows the sender, signals, name-owner tracking and caller credentials, and a loop that
/// attaches to libpulse's main loop so the daemon runs on one thread.
public enum DBusKit {
    /// The version of libdbus this module runs with.
    public static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, micro: Int32 = 0
        dbus_get_version(&major, &minor, &micro)
        return "\(major).\(minor).\(micro)"
    }
}
