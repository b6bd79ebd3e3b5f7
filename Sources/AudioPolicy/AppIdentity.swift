// SPDX-License-Identifier: Apache-2.0

/// Who made a stream, as far as its properties, the kernel and the installed desktop entries tell
/// (DESIGN §2, "Who an app is"). The shell gathers the facts; the engine decides from them.
public struct AppIdentity: Hashable, Sendable {
    /// `application.name`.
    public var name: String
    /// `application.process.binary`, or the executable of the process when the server vouches for it.
    public var binary: String?
    /// `application.id` (or `application.desktop`): the desktop id the client declares.
    public var desktopID: String?
    /// The Flatpak app id, when the client runs in a sandbox.
    public var flatpakID: String?
    /// The desktop id named by the systemd unit the process runs in: `app-<launcher>-<id>-<n>.scope`
    /// or `app-<id>@<n>.service`, as desktops start apps.
    public var unitDesktopID: String?
    /// For an interpreter such as `python3`, the script it runs (without its directory or `.py`).
    public var script: String?
    /// The app's installed desktop entry, when one was found.
    public var desktopEntry: DesktopEntryFacts?

    public init(
        name: String, binary: String? = nil, desktopID: String? = nil, flatpakID: String? = nil,
        unitDesktopID: String? = nil, script: String? = nil, desktopEntry: DesktopEntryFacts? = nil
    ) {
        self.name = name
        self.binary = binary
        self.desktopID = desktopID
        self.flatpakID = flatpakID
        self.unitDesktopID = unitDesktopID
        self.script = script
        self.desktopEntry = desktopEntry
    }

    /// The id a policy session takes: the most trusted desktop id known (Flatpak, systemd unit,
    /// `application.id`, the desktop entry found), else the application name, or the script when that
    /// name is only the interpreter's. Two Electron apps that both call themselves "Chromium" are two
    /// apps when their entries or units differ, and two Python programs that libpulse names
    /// "python3.11" are two apps by their scripts.
    public var key: String {
        flatpakID ?? unitDesktopID ?? desktopID ?? desktopEntry?.id ?? (name == binary ? script : nil) ?? name
    }
}

/// What the bridge read from an app's desktop entry (the freedesktop Desktop Entry file).
public struct DesktopEntryFacts: Hashable, Sendable {
    /// The desktop id: the file's name without `.desktop`, relative to its `applications` folder.
    public var id: String
    /// Its `Categories`, in order.
    public var categories: [String]
    /// Which identity fact led to the entry.
    public var foundBy: IdentitySource

    public init(id: String, categories: [String], foundBy: IdentitySource) {
        self.id = id
        self.categories = categories
        self.foundBy = foundBy
    }
}
