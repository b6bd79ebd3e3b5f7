// SPDX-License-Identifier: Apache-2.0

/// What the bridge's `Snapshot` says, as the indicator shows it: the silent switch, and each governed
/// app with what silences it.
public struct BridgeState: Equatable, Sendable {
    /// Something that silences an app, in words: "a call in Firefox", "Orca".
    public typealias Silencer = String

    /// What is happening to an app.
    public enum Condition: Equatable, Sendable {
        case playing
        case idle
        case ducked(by: [Silencer])
        /// `paused`: the app's own stream stopped (it paused, or the bridge paused its player).
        case interrupted(by: [Silencer], paused: Bool)
        case waiting(for: Silencer?)
    }

    /// A governed app: its session's app id, the policy it is governed by, and its condition.
    public struct App: Equatable, Sendable {
        public var name: String
        public var policy: String
        public var condition: Condition
        /// The policy the user chose for it with *Treat as* (read from the indicator's own file).
        public var treatedAs: String?

        public init(name: String, policy: String, condition: Condition, treatedAs: String? = nil) {
            self.name = name
            self.policy = policy
            self.condition = condition
            self.treatedAs = treatedAs
        }
    }

    public var silentMode: Bool
    /// The governed apps, by name.
    public var apps: [App]
    /// The policies in force, first match first.
    public var policies: [String]

    public init(silentMode: Bool = false, apps: [App] = [], policies: [String] = []) {
        self.silentMode = silentMode
        self.apps = apps
        self.policies = policies
    }

    /// Reads a `Snapshot` (decoded JSON). An app with several sessions shows the one most silenced.
    public init(snapshot: [String: Any]) {
        let sessions = snapshot["sessions"] as? [[String: Any]] ?? []
        let streams = snapshot["streams"] as? [[String: Any]] ?? []
        let byPath = Dictionary(sessions.compactMap { s in (s["session"] as? String).map { ($0, s) } }) { first, _ in first }
        func silencer(_ reference: String) -> Silencer {
            guard let session = byPath[reference] else { return reference }
            let app = session["app"] as? String ?? reference
            let isCall = session["call"] is String || ["voiceChat", "videoChat"].contains(session["mode"] as? String ?? "")
            return isCall ? "a call in \(app)" : app
        }
        var apps: [String: App] = [:]
        for session in sessions {
            guard let name = session["app"] as? String else { continue }
            let path = session["session"] as? String ?? ""
            let own = streams.filter { $0["session"] as? String == path }
            let condition = Self.condition(of: session, streams: own, silencer: silencer)
            let app = App(name: name, policy: session["policy"] as? String ?? "", condition: condition)
            if let known = apps[name], known.condition.weight >= condition.weight { continue }
            apps[name] = app
        }
        self.init(silentMode: snapshot["silentMode"] as? Bool ?? false,
                  apps: apps.values.sorted { $0.name.lowercased() < $1.name.lowercased() },
                  policies: snapshot["policies"] as? [String] ?? [])
    }

    static func condition(of session: [String: Any], streams: [[String: Any]], silencer: (String) -> Silencer) -> Condition {
        let interrupters = (session["interruptedBy"] as? [String] ?? []).map { $0.hasPrefix("/") ? silencer($0) : $0 }
        if !interrupters.isEmpty || session["interrupted"] as? Bool == true {
            return .interrupted(by: interrupters, paused: streams.contains { $0["corked"] as? Bool == true })
        }
        if session["activation"] as? String == "waiting" { return .waiting(for: (session["waitingFor"] as? String).map(silencer)) }
        let duckers = streams.filter { $0["duckLevel"] is Double }
            .flatMap { ($0["causes"] as? [String] ?? []).filter { $0.hasPrefix("ducker:") } }
            .map { silencer(String($0.dropFirst("ducker:".count))) }
        if !duckers.isEmpty { return .ducked(by: Array(Set(duckers)).sorted()) }
        let playing = streams.contains { $0["corked"] as? Bool == false } || session["active"] as? Bool == true
        return playing ? .playing : .idle
    }
}

extension BridgeState.Condition {
    /// Whether something silences the app (interrupted, ducked or waiting).
    public var isSilenced: Bool {
        switch self {
        case .playing, .idle: false
        case .ducked, .interrupted, .waiting: true
        }
    }

    /// The more an app is silenced, the heavier: the state an app of several sessions shows.
    var weight: Int {
        switch self {
        case .idle: 0
        case .playing: 1
        case .waiting: 2
        case .ducked: 3
        case .interrupted: 4
        }
    }
}
