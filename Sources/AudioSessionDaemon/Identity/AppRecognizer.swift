// SPDX-License-Identifier: Apache-2.0
import AudioPolicy

/// Puts together who an app is from a stream's properties, its client's, its process and the
/// installed desktop entries (DESIGN §2, "Who an app is"). Which policy that makes it is the engine's
/// decision (`PolicySet.choice(for:role:)`).
struct AppRecognizer {
    var entries: DesktopEntryIndex
    /// The apps recognised so far, by what they were recognised from, as of the desktop entries'
    /// ``DesktopEntryIndex/generation``: a call's stream, or any new stream of an app already heard, is
    /// recognised without the entries' lookup on its way to the first moves.
    private var recognized: [RecognitionKey: AppIdentity] = [:]
    private var recognizedGeneration = 0
    /// How many apps ``recognized`` holds before it starts again.
    static let recognizedLimit = 512

    /// The properties an app is recognised from.
    static let keys = ["application.name", "application.process.binary", "application.id", "application.desktop",
                       "pipewire.access.portal.app_id", "flatpak.app_id"]

    init(environment: [String: String]) {
        entries = DesktopEntryIndex(folders: DesktopEntryIndex.folders(environment: environment))
    }

    /// The app of a stream. Where the stream's properties lack a key its client's have (a native
    /// PipeWire client such as Spotify's names only `media.name` on its stream), the client's count.
    /// The Flatpak id is PipeWire's portal module's, else the vouched process's sandbox, else the
    /// systemd unit's when Flatpak started it, else what the client declares.
    mutating func identity(stream: [String: String], client: [String: String], process: ProcessFacts) -> AppIdentity {
        func value(_ key: String) -> String? { stream[key] ?? client[key] }
        entries.refreshIfChanged()
        if recognizedGeneration != entries.generation || recognized.count >= Self.recognizedLimit {
            recognized = [:]
            recognizedGeneration = entries.generation
        }
        let key = RecognitionKey(properties: Self.keys.map(value), process: process)
        if let known = recognized[key] { return known }
        var app = AppIdentity(
            name: value("application.name") ?? process.executable ?? "unknown",
            binary: value("application.process.binary") ?? process.executable,
            desktopID: value("application.id") ?? value("application.desktop"),
            flatpakID: value("pipewire.access.portal.app_id") ?? process.sandboxAppID ?? process.unit?.flatpakID
                ?? value("flatpak.app_id"),
            unitDesktopID: process.unit?.desktopID, script: process.script)
        app.desktopEntry = entries.entryAsRead(for: app)  // read again above, if they changed
        recognized[key] = app
        return app
    }

    /// The app of a process alone (for `audiosessionctl policy explain PID`): what the kernel tells.
    mutating func identity(process: ProcessFacts) -> AppIdentity {
        identity(stream: [:], client: [:], process: process)
    }
}

/// What an app is recognised from: the app's properties (``AppRecognizer/keys``, the stream's or its
/// client's) and what the kernel tells of its process.
private struct RecognitionKey: Hashable {
    var properties: [String?]
    var executable: String?
    var script: String?
    var sandboxAppID: String?
    var unit: SystemdUnit?

    init(properties: [String?], process: ProcessFacts) {
        self.properties = properties
        executable = process.executable
        script = process.script
        sandboxAppID = process.sandboxAppID
        unit = process.unit
    }
}

/// Who an app is, recognised as the bridge recognises the apps of streams, for `audiosessionctl
/// policy explain`.
public enum AppLookup {
    /// The app of a running process, from what the kernel and its desktop entry tell, and the name of
    /// the systemd unit it runs in; nil when no such process runs.
    public static func app(ofProcess pid: Int32, environment: [String: String]) -> (app: AppIdentity, unit: String?)? {
        guard let executable = ProcessAncestry.executableName(of: pid) else { return nil }
        let facts = ProcessFacts.read(pid: pid, executable: executable, trusted: true, sandboxTrusted: true)
        var recognizer = AppRecognizer(environment: environment)
        return (recognizer.identity(process: facts), facts.unit?.name)
    }

    /// An app known by one name, taken as its desktop or Flatpak id, its binary and its application name.
    public static func app(named name: String, environment: [String: String]) -> AppIdentity {
        var app = AppIdentity(name: name, binary: name, desktopID: name)
        var entries = DesktopEntryIndex(folders: DesktopEntryIndex.folders(environment: environment))
        app.desktopEntry = entries.entry(for: app)
        return app
    }
}
