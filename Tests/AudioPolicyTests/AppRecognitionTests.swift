// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Who an app is (DESIGN §2, "Who an app is"): the apps people run, as their sources show them, get the
/// shipped policy their users expect, and the most trusted fact decides.
@Suite("App recognition")
struct AppRecognitionTests {
    static let shipped: PolicySet = {
        let (set, _) = PolicyLibrary.load(try! PolicyFileTests.shipped())
        return set!
    }()

    /// One row: what the app shows on its stream and process, and the policy and source expected.
    struct Row: CustomTestStringConvertible, Sendable {
        var label: String
        var app: AppIdentity
        var role: String?
        var policy: String?
        var source: IdentitySource?
        var testDescription: String { label }
    }

    static func entry(_ id: String, _ categories: String, by source: IdentitySource = .binary) -> DesktopEntryFacts {
        DesktopEntryFacts(id: id, categories: categories.split(separator: ";").map(String.init), foundBy: source)
    }

    /// The apps of the issue's table, as their sources say they name themselves.
    static let rows: [Row] = [
        Row(label: "Firefox", app: AppIdentity(name: "Firefox", binary: "firefox"), policy: "browser-like", source: .binary),
        Row(label: "Chromium", app: AppIdentity(name: "Chromium", binary: "chromium"), policy: "browser-like", source: .binary),
        Row(label: "Chromium's capture", app: AppIdentity(name: "Chromium input", binary: "chromium"), policy: "browser-like", source: .binary),
        Row(label: "Google Chrome", app: AppIdentity(name: "Google Chrome", binary: "chrome"), policy: "browser-like", source: .binary),
        Row(label: "Epiphany in its unit", app: AppIdentity(name: "WebKitWebProcess", binary: "WebKitWebProcess",
                                                             unitDesktopID: "org.gnome.Epiphany"),
            policy: "browser-like", source: .systemdUnit),
        Row(label: "Discord (Electron)", app: AppIdentity(name: "Chromium", binary: "Discord"), policy: "chat", source: .binary),
        Row(label: "Discord's voice", app: AppIdentity(name: "WEBRTC VoiceEngine", binary: "Discord"), policy: "chat", source: .binary),
        Row(label: "Discord as a Flatpak", app: AppIdentity(name: "Chromium", binary: "Discord", flatpakID: "com.discordapp.Discord"),
            policy: "chat", source: .flatpak),
        Row(label: "Slack", app: AppIdentity(name: "Chromium", binary: "slack"), policy: "chat", source: .binary),
        Row(label: "Element", app: AppIdentity(name: "Chromium", binary: "element-desktop"), policy: "chat", source: .binary),
        Row(label: "Signal", app: AppIdentity(name: "Chromium", binary: "signal-desktop"), policy: "chat", source: .binary),
        Row(label: "Signal's call", app: AppIdentity(name: "ringrtc", binary: "signal-desktop"), policy: "chat", source: .binary),
        Row(label: "Telegram", app: AppIdentity(name: "Telegram", binary: "telegram-desktop"), policy: "chat", source: .binary),
        Row(label: "Zoom", app: AppIdentity(name: "ZOOM VoiceEngine", binary: "zoom"), policy: "chat", source: .binary),
        Row(label: "Teams for Linux", app: AppIdentity(name: "Chromium", binary: "teams-for-linux"), policy: "chat", source: .binary),
        Row(label: "an unknown app's WebRTC engine", app: AppIdentity(name: "WEBRTC VoiceEngine", binary: "meetly"),
            policy: "chat", source: .applicationName),
        Row(label: "Spotify (older client)", app: AppIdentity(name: "Spotify", binary: "spotify"), role: "music",
            policy: "media-player", source: .binary),
        Row(label: "Spotify (native PipeWire, the client's name)", app: AppIdentity(name: "spotify"), policy: "media-player",
            source: .applicationName),
        Row(label: "Lollypop", app: AppIdentity(name: "Lollypop", binary: "python3.11", script: "lollypop"), role: "music",
            policy: "media-player", source: .script),
        Row(label: "Rhythmbox", app: AppIdentity(name: "Rhythmbox", binary: "rhythmbox"), role: "music", policy: "media-player",
            source: .binary),
        Row(label: "Totem", app: AppIdentity(name: "Videos", binary: "totem"), role: "video", policy: "media-player", source: .binary),
        Row(label: "mpv 0.41 (no role)", app: AppIdentity(name: "mpv", binary: "mpv"), policy: "media-player", source: .binary),
        Row(label: "VLC", app: AppIdentity(name: "VLC media player", binary: "vlc", desktopID: "org.VideoLAN.VLC"), role: "video",
            policy: "media-player", source: .binary),
        Row(label: "a Steam game in Steam's unit", app: AppIdentity(name: "SDL Application", binary: "hollow_knight",
                                                                    unitDesktopID: "steam"),
            policy: "game", source: .systemdUnit),
        Row(label: "an SDL game on PipeWire", app: AppIdentity(name: "Celeste", binary: "Celeste"), role: "game", policy: "game",
            source: .roleFallback),
        Row(label: "a game known by its entry", app: AppIdentity(name: "OpenAL Soft", binary: "supertux2",
                                                                 desktopEntry: entry("supertux2", "Game;ArcadeGame;")),
            policy: "game", source: .desktopCategories),
        Row(label: "Orca", app: AppIdentity(name: "orca", binary: "python3.11", script: "orca"), policy: "screen-reader", source: .script),
        Row(label: "speech-dispatcher on PulseAudio", app: AppIdentity(name: "speech-dispatcher-espeak-ng", binary: "sd_espeak-ng"),
            policy: "screen-reader", source: .binary),
        Row(label: "speech-dispatcher on PipeWire", app: AppIdentity(name: "speech-dispatcher-espeak-ng", binary: "sd_espeak-ng"),
            role: "a11y", policy: "screen-reader", source: .binary),
        Row(label: "baresip on PipeWire", app: AppIdentity(name: "baresip", binary: "baresip"), role: "phone", policy: "voip",
            source: .binary),
        Row(label: "Mumble", app: AppIdentity(name: "Mumble", binary: "mumble"), role: "game", policy: "voip", source: .binary),
        Row(label: "a softphone known by its entry", app: AppIdentity(name: "ringline", binary: "ringline", unitDesktopID: "org.example.Ringline",
                                                                      desktopEntry: entry("org.example.Ringline", "Network;Telephony;", by: .systemdUnit)),
            policy: "voip", source: .desktopCategories),
        Row(label: "a player known by its entry", app: AppIdentity(name: "gst-launch-1.0", binary: "gst-launch-1.0",
                                                                   desktopEntry: entry("org.example.Tunes", "AudioVideo;Audio;Player;")),
            policy: "media-player", source: .desktopCategories),
        Row(label: "event sounds", app: AppIdentity(name: "Files", binary: "nautilus"), role: "event", policy: "notification", source: .role),
        Row(label: "VS Code (Electron, no call engine)", app: AppIdentity(name: "Chromium", binary: "code",
                                                                          desktopEntry: entry("code", "TextEditor;Development;IDE;")),
            policy: nil, source: nil),
        Row(label: "an unknown program", app: AppIdentity(name: "pacat", binary: "pacat"), policy: nil, source: nil),
    ]

    @Test("the apps people run get the policy their users expect", arguments: rows)
    func appsPeopleRun(row: Row) {
        let choice = Self.shipped.choice(for: row.app, role: row.role)
        #expect(choice?.policy.name == row.policy)
        #expect(choice?.source == row.source)
    }

    /// A policy set where every source names a different policy, to show their order.
    static let everySource: PolicySet = {
        func policy(_ name: String, _ match: PolicyMatch) -> SessionPolicy {
            var policy = SessionPolicy(name: name)
            policy.match = match
            return policy
        }
        return PolicySet(policies: [
            policy("by-name", PolicyMatch(applicationNames: ["App"])),
            policy("by-binary", PolicyMatch(binaries: ["app-bin"])),
            policy("by-script", PolicyMatch(binaries: ["app-script"])),
            policy("by-id", PolicyMatch(desktopIDs: ["org.example.Declared"])),
            policy("by-unit", PolicyMatch(desktopIDs: ["org.example.Unit"])),
            policy("by-flatpak", PolicyMatch(flatpakIDs: ["org.example.Sandboxed"])),
            policy("by-role", PolicyMatch(roles: ["music"])),
            policy("by-category", PolicyMatch(categories: ["Player"])),
        ], fallbackByRole: ["music": "by-name"])
    }()

    @Test("the most trusted fact decides: Flatpak, unit, application.id, script, binary, name, role, categories, fallback")
    func trustOrder() {
        var app = AppIdentity(name: "App", binary: "app-bin", desktopID: "org.example.Declared", flatpakID: "org.example.Sandboxed",
                              unitDesktopID: "org.example.Unit", script: "app-script",
                              desktopEntry: Self.entry("org.example.Unit", "AudioVideo;Player;"))
        let expected: [(String, IdentitySource, WritableKeyPath<AppIdentity, String?>?)] = [
            ("by-flatpak", .flatpak, \.flatpakID), ("by-unit", .systemdUnit, \.unitDesktopID),
            ("by-id", .applicationID, \.desktopID), ("by-script", .script, \.script), ("by-binary", .binary, \.binary),
        ]
        for (name, source, fact) in expected {
            let choice = Self.everySource.choice(for: app, role: "music")
            #expect(choice?.policy.name == name)
            #expect(choice?.source == source)
            if let fact { app[keyPath: fact] = nil }
        }
        #expect(Self.everySource.choice(for: app, role: "music")?.source == .applicationName)
        app.name = "Other"
        #expect(Self.everySource.choice(for: app, role: "music")?.policy.name == "by-role")
        #expect(Self.everySource.choice(for: app, role: nil)?.policy.name == "by-category")
        #expect(Self.everySource.choice(for: app, role: nil)?.explanation
                == "by-category, because its desktop entry's category 'Player' is in [match] categories")
        app.desktopEntry = nil
        #expect(Self.everySource.choice(for: app, role: "video") == nil)
    }

    @Test("two Electron apps that both call themselves Chromium, or two Python programs named python3, are two apps")
    func electronAppsAreApart() {
        let discord = AppIdentity(name: "Chromium", binary: "Discord", desktopEntry: Self.entry("discord", "Network;InstantMessaging;"))
        let slack = AppIdentity(name: "Chromium", binary: "slack", desktopEntry: Self.entry("slack", "Network;InstantMessaging;"))
        #expect(discord.key == "discord" && slack.key == "slack")
        #expect(AppIdentity(name: "Chromium", binary: "x", desktopID: "d", flatpakID: "f", unitDesktopID: "u").key == "f")
        let lollypop = AppIdentity(name: "python3.11", binary: "python3.11", script: "lollypop")
        let tuner = AppIdentity(name: "python3.11", binary: "python3.11", script: "tuner")
        #expect(lollypop.key == "lollypop" && tuner.key == "tuner", "two Python programs named after their interpreter")
        #expect(AppIdentity(name: "Lollypop", binary: "python3.11", script: "lollypop").key == "Lollypop", "a name of its own stays")
    }
    /// The rule DESIGN §2 states, written out as a walk: facts in the order they are trusted, within a
    /// fact policies in precedence order, then their rules, then the fact's values.
    static func walkedChoice(_ set: PolicySet, _ app: AppIdentity, _ role: String?) -> PolicyChoice? {
        let named: [(IdentitySource, String?)] = [
            (.flatpak, app.flatpakID), (.systemdUnit, app.unitDesktopID), (.applicationID, app.desktopID),
            (.script, app.script), (.binary, app.binary), (.applicationName, app.name), (.role, role),
        ]
        var facts = named.compactMap { source, value in value.map { (source, [$0]) } }
        if let entry = app.desktopEntry { facts.append((.desktopCategories, entry.categories)) }
        for (source, values) in facts {
            for policy in set.policies {
                for rule in policy.match.rules(for: source) {
                    if let value = values.first(where: rule.values.contains) {
                        return PolicyChoice(policy: policy, source: source, value: value, rule: rule.name)
                    }
                }
            }
        }
        guard let role, let name = set.fallbackByRole[role], let policy = set.policy(named: name) else { return nil }
        return PolicyChoice(policy: policy, source: .roleFallback, value: role, rule: "[match] fallback-for-roles")
    }

    @Test("the policy is looked up as the walk through every policy's rules finds it, for generated apps")
    func lookupAgreesWithTheWalk() {
        var generator = SystemRandomNumberGenerator()
        let sets = [Self.shipped, Self.everySource]
        for set in sets {
            // For each source, nothing, a value its rules name, or a name no rule has.
            func any(_ source: IdentitySource) -> String? {
                let named = set.policies.flatMap { $0.match.rules(for: source).flatMap(\.values) }
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: return nil
                case 1: return named.randomElement(using: &generator) ?? "nobody"
                default: return ["nobody", "Chromium", "python3"].randomElement(using: &generator)
                }
            }
            for _ in 0..<3000 {
                let categories = (0..<Int.random(in: 0...4, using: &generator)).compactMap { _ in any(.desktopCategories) }
                let app = AppIdentity(name: any(.applicationName) ?? "app", binary: any(.binary), desktopID: any(.applicationID),
                                      flatpakID: any(.flatpak), unitDesktopID: any(.systemdUnit), script: any(.script),
                                      desktopEntry: categories.isEmpty ? nil : DesktopEntryFacts(
                                          id: "entry", categories: categories, foundBy: .binary))
                let role = any(.role)
                #expect(set.choice(for: app, role: role) == Self.walkedChoice(set, app, role), "\(app) \(role ?? "no role")")
            }
        }
    }
}
