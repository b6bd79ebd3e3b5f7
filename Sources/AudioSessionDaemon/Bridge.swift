import AudioPolicy
import AudioSessionIPC
import AudioSessionModel
import DBusKit
import Logging
import PulseAudioClient

/// The imperative shell around ``PolicyEngine``: it owns the one event loop on which libpulse and
/// libdbus run, turns server and bus events into engine events, and carries out the engine's
/// actions (server commands, D-Bus replies and signals, journal writes, event-log records).
public enum Bridge {
    /// The bridge's version, as the manager's `Version` property reports it.
    public static let version = "0.1.0"
}
