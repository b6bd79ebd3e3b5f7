// SPDX-License-Identifier: Apache-2.0

/// What the indicator shows for a state of the bridge: the item's status, icon and tooltip, and its
/// menu. Pure: the program turns it into `org.kde.StatusNotifierItem` properties and a
/// `com.canonical.dbusmenu` layout.
public struct Presentation: Equatable, Sendable {
    /// `org.kde.StatusNotifierItem`'s `Status`.
    public enum Status: String, Sendable {
        case passive = "Passive", active = "Active"
    }

    public var status: Status
    /// A name from the freedesktop icon theme.
    public var iconName: String
    public var tooltipTitle: String
    /// One line per silenced app, or why nothing is shown.
    public var tooltipBody: String
    public var menu: [MenuItem]

    /// The title of the item and of its tooltip.
    public static let title = "Audio sessions"

    /// The presentation of a running bridge; `notice` is the last fault to tell the user (a file that
    /// could not be written), shown at the top of the menu.
    public init(_ state: BridgeState, notice: String? = nil) {
        let silenced = state.apps.filter(\.condition.isSilenced)
        status = state.silentMode || !silenced.isEmpty ? .active : .passive
        iconName = state.silentMode ? "audio-volume-muted-symbolic" : silenced.isEmpty ? "audio-volume-high-symbolic" : "audio-volume-low-symbolic"
        tooltipTitle = Self.title
        var lines = silenced.map(Self.sentence)
        if state.silentMode { lines.insert("Silent mode is on", at: 0) }
        tooltipBody = lines.isEmpty ? "Nothing is silenced" : lines.joined(separator: "\n")
        var items: [MenuItem] = []
        if let notice { items += [MenuItem(key: "notice", label: notice, enabled: false), .separator("notice-end")] }
        items.append(MenuItem(key: "silent", label: "Silent mode", toggle: .checkmark(state.silentMode),
                              command: .setSilentMode(!state.silentMode)))
        items.append(.separator("apps"))
        if state.apps.isEmpty { items.append(MenuItem(key: "no-apps", label: "No app is playing", enabled: false)) }
        items += state.apps.map { Self.item(for: $0, policies: state.policies) }
        items.append(.separator("timeline"))
        items.append(MenuItem(key: "timeline", label: "Show timeline", command: .showTimeline))
        menu = items
    }

    /// The presentation while the bridge is not running: nothing can be done but wait for it.
    public static func bridgeNotRunning(notice: String? = nil) -> Presentation {
        var items: [MenuItem] = []
        if let notice { items += [MenuItem(key: "notice", label: notice, enabled: false), .separator("notice-end")] }
        items.append(MenuItem(key: "not-running", label: "audiosessiond is not running", enabled: false))
        return Presentation(status: .passive, iconName: "audio-volume-muted-symbolic", tooltipTitle: title,
                            tooltipBody: "audiosessiond is not running", menu: items)
    }

    init(status: Status, iconName: String, tooltipTitle: String, tooltipBody: String, menu: [MenuItem]) {
        self.status = status
        self.iconName = iconName
        self.tooltipTitle = tooltipTitle
        self.tooltipBody = tooltipBody
        self.menu = menu
    }

    /// What kind of app a policy governs, in a word, for the tooltip ("Music (mpv) …").
    static let kinds = ["media-player": "Music", "audiobook": "Podcast", "game": "Game", "voip": "Call",
                        "video-call": "Call", "navigation": "Navigation", "browser-like": "Browser",
                        "screen-reader": "Screen reader", "notification": "Notifications", "alarm": "Alarm",
                        "chat": "Chat", "music-making": "Music making", "video-recorder": "Recording"]

    /// One silenced app in words: "Music (mpv) paused by a call in Firefox", "Music (mpv) ducked by Orca".
    static func sentence(_ app: BridgeState.App) -> String {
        let subject = kinds[app.treatedAs ?? app.policy].map { "\($0) (\(app.name))" } ?? app.name
        return "\(subject) \(app.condition.words)"
    }

    /// An app's item: its name and condition; its submenu says what to treat it as.
    static func item(for app: BridgeState.App, policies: [String]) -> MenuItem {
        let key = "app:" + app.name
        // The users' own Treat as files are not choices of their own.
        var choices = policies.filter { !$0.hasPrefix(TreatAsFile.prefix) }.map { policy in
            MenuItem(key: key + "/as:" + policy, label: policy, toggle: .radio(policy == (app.treatedAs ?? app.policy)),
                     command: .treatAs(app: app.name, policy: policy))
        }
        choices += [.separator(key + "/detected-above"),
                    MenuItem(key: key + "/detected", label: "As detected", command: .asDetected(app: app.name))]
        let treatAs = MenuItem(key: key + "/treat-as", label: "Treat as", children: choices)
        return MenuItem(key: key, label: "\(app.name): \(app.condition.words)", children: [treatAs])
    }
}

extension BridgeState.Condition {
    /// The condition in words, after the app's name.
    public var words: String {
        func by(_ silencers: [String]) -> String { silencers.isEmpty ? "" : " by " + silencers.joined(separator: " and ") }
        return switch self {
        case .playing: "playing"
        case .idle: "quiet"
        case .ducked(let silencers): "ducked" + by(silencers)
        case .interrupted(let silencers, let paused): (paused ? "paused" : "silenced") + by(silencers)
        case .waiting(let silencer): "waiting" + (silencer.map { " for " + $0 } ?? "")
        }
    }
}
