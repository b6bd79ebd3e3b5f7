// SPDX-License-Identifier: Apache-2.0

/// Where a fact about an app comes from, most trusted first (DESIGN §2, "Who an app is").
public enum IdentitySource: String, Hashable, Sendable, CaseIterable {
    /// The Flatpak sandbox (PipeWire's portal module, or the vouched process's `.flatpak-info`).
    case flatpak = "Flatpak app id"
    /// The systemd scope or service the desktop started the app in.
    case systemdUnit = "systemd unit"
    /// `application.id` as the client declares it.
    case applicationID = "application.id"
    /// The script an interpreter runs.
    case script = "script"
    /// The process's binary.
    case binary = "binary"
    /// `application.name`.
    case applicationName = "application.name"
    /// The stream's `media.role`, named by a policy's `roles` rule.
    case role = "media.role"
    /// The `Categories` of the app's desktop entry.
    case desktopCategories = "desktop entry categories"
    /// No rule named the app; its `media.role` has a fallback policy.
    case roleFallback = "fallback for media.role"

    /// Whether the fact is a name of the app itself (not its stream's role or its entry's categories).
    public var namesTheApp: Bool { ![.role, .desktopCategories, .roleFallback].contains(self) }
}

/// Which policy governs an app, and the fact and rule that decided it.
public struct PolicyChoice: Hashable, Sendable {
    public var policy: SessionPolicy
    public var source: IdentitySource
    /// The value that matched: an id, a binary, a category, a role.
    public var value: String
    /// The policy file key that named it, such as `[match] binaries`.
    public var rule: String

    /// Why, for people: "its binary 'mpv' is in [match] binaries".
    public var reason: String {
        switch source {
        case .roleFallback: "no rule names the app and it is the fallback for media.role '\(value)'"
        case .desktopCategories: "its desktop entry's category '\(value)' is in \(rule)"
        default: "its \(source.rawValue) '\(value)' is in \(rule)"
        }
    }

    /// One line for people: "media-player, because its binary 'mpv' is in [match] binaries".
    public var explanation: String { "\(policy.name), because \(reason)" }
}

/// The rules that pick the apps a policy governs. A rule with no entries matches nothing.
public struct PolicyMatch: Hashable, Sendable {
    public var desktopIDs: Set<String>
    public var flatpakIDs: Set<String>
    public var binaries: Set<String>
    public var applicationNames: Set<String>
    public var roles: Set<String>
    /// Desktop entry categories (`Telephony`, `Player`, `Game`, …): any one of them matches.
    public var categories: Set<String>

    public init(
        desktopIDs: Set<String> = [], flatpakIDs: Set<String> = [], binaries: Set<String> = [],
        applicationNames: Set<String> = [], roles: Set<String> = [], categories: Set<String> = []
    ) {
        self.desktopIDs = desktopIDs
        self.flatpakIDs = flatpakIDs
        self.binaries = binaries
        self.applicationNames = applicationNames
        self.roles = roles
        self.categories = categories
    }

    /// The rules, with their policy file names, that can name a fact of this source.
    func rules(for source: IdentitySource) -> [(name: String, values: Set<String>)] {
        zip(Self.ruleNames(for: source), ruleValues(for: source)).map { ($0, $1) }
    }

    /// The policy file names of the rules that can name a fact of this source, in the order they are
    /// tried: made once, so that naming the rule of a choice makes nothing.
    static func ruleNames(for source: IdentitySource) -> [String] {
        switch source {
        case .flatpak: RuleNames.flatpakFirst
        case .systemdUnit, .applicationID: RuleNames.desktopFirst
        case .script, .binary: RuleNames.binaries
        case .applicationName: RuleNames.applicationNames
        case .role: RuleNames.roles
        case .desktopCategories: RuleNames.categories
        case .roleFallback: []
        }
    }

    private enum RuleNames {
        static let flatpakFirst = ["[match] flatpak-ids", "[match] desktop-ids"]
        static let desktopFirst = ["[match] desktop-ids", "[match] flatpak-ids"]
        static let binaries = ["[match] binaries"]
        static let applicationNames = ["[match] application-names"]
        static let roles = ["[match] roles"]
        static let categories = ["[match] categories"]
    }

    private func ruleValues(for source: IdentitySource) -> [Set<String>] {
        switch source {
        case .flatpak: [flatpakIDs, desktopIDs]
        case .systemdUnit, .applicationID: [desktopIDs, flatpakIDs]
        case .script, .binary: [binaries]
        case .applicationName: [applicationNames]
        case .role: [roles]
        case .desktopCategories: [categories]
        case .roleFallback: []
        }
    }
}

/// For each source of facts, each value a rule names and the first policy (in precedence order) and
/// rule (in ``PolicyMatch/rules(for:)``'s order) that name it: a stream's policy is found with a few
/// lookups, not by going through every policy's rules. Made from the policies, so it plays no part
/// in a policy set's equality.
struct ChoiceIndex: Hashable, Sendable {
    /// A policy's place in the set and a rule's among those for the source.
    struct Naming: Comparable, Sendable {
        var policy: Int
        var rule: Int
        static func < (a: Naming, b: Naming) -> Bool { (a.policy, a.rule) < (b.policy, b.rule) }
    }

    private var firstNaming: [IdentitySource: [String: Naming]] = [:]

    init(_ policies: [SessionPolicy]) {
        for source in IdentitySource.allCases {
            var naming: [String: Naming] = [:]
            for (policyPlace, policy) in policies.enumerated() {
                for (rulePlace, rule) in policy.match.rules(for: source).enumerated() {
                    for value in rule.values where naming[value] == nil {
                        naming[value] = Naming(policy: policyPlace, rule: rulePlace)
                    }
                }
            }
            if !naming.isEmpty { firstNaming[source] = naming }
        }
    }

    /// The first policy and rule that name `value` as a fact of `source`.
    func first(naming value: String, as source: IdentitySource) -> Naming? { firstNaming[source]?[value] }

    static func == (_: ChoiceIndex, _: ChoiceIndex) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

extension PolicySet {
    /// The policy for a stream that joined no explicit session. The app's facts are tried in the
    /// order they are trusted (Flatpak id, systemd unit, `application.id`, script, binary, application
    /// name), then the stream's role as a `roles` rule names it, then the categories of the app's
    /// desktop entry, and last the fallback for its role; within one fact, policies in precedence
    /// order. Nil when nothing decides: the stream mixes with everything and is never touched.
    public func choice(for app: AppIdentity, role: String?) -> PolicyChoice? {
        // One fact after another, in this order, without a list made of them.
        func named(_ source: IdentitySource, _ value: String?) -> PolicyChoice? {
            guard let value, let naming = choiceIndex.first(naming: value, as: source) else { return nil }
            return choice(naming, source, value)
        }
        if let chosen = named(.flatpak, app.flatpakID) ?? named(.systemdUnit, app.unitDesktopID)
            ?? named(.applicationID, app.desktopID) ?? named(.script, app.script) ?? named(.binary, app.binary)
            ?? named(.applicationName, app.name) ?? named(.role, role)
        {
            return chosen
        }
        // Of the categories, the one the first policy and rule name; the first such in the entry's order.
        if let categories = app.desktopEntry?.categories {
            let namings = categories.compactMap { category in
                choiceIndex.first(naming: category, as: .desktopCategories).map { (category, $0) }
            }
            if let first = namings.min(by: { $0.1 < $1.1 }) { return choice(first.1, .desktopCategories, first.0) }
        }
        guard let role, let name = fallbackByRole[role], let policy = policy(named: name) else { return nil }
        return PolicyChoice(policy: policy, source: .roleFallback, value: role, rule: "[match] fallback-for-roles")
    }

    private func choice(_ naming: ChoiceIndex.Naming, _ source: IdentitySource, _ value: String) -> PolicyChoice {
        let policy = policies[naming.policy]
        return PolicyChoice(policy: policy, source: source, value: value, rule: PolicyMatch.ruleNames(for: source)[naming.rule])
    }

    /// The policy ``choice(for:role:)`` picks.
    public func policy(for app: AppIdentity, role: String?) -> SessionPolicy? { choice(for: app, role: role)?.policy }
}
