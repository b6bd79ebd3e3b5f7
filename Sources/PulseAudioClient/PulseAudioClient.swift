import CPulse

/// The typed wrapper of libpulse: one loop thread, a context and its states, introspection of the
/// server, sinks, sources, cards, clients and streams, subscription as a typed change stream, and
/// the commands the bridge applies (mute, volume, move, defaults, ports, card profiles). Every C
/// return code passes through one choke point that turns it into a typed error with `pa_strerror`'s text.
public enum PulseAudioClient {
    /// The version of libpulse this module was built against.
    public static var libraryVersion: String { String(cString: pa_get_library_version()) }
}
