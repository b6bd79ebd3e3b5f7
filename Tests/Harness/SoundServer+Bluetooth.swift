// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A Bluetooth headset on a real sound server, without Bluetooth hardware or BlueZ: a private system
/// bus with the BlueZ stand-in (`Tests/Tools/bluez-standin`: one adapter, one paired headset with an
/// A2DP sink and a hands-free unit), and the SCO stand-in (`Tests/Tools/sco-standin`, preloaded into
/// the process that speaks to BlueZ) for the hands-free profile's audio socket. The server's own
/// Bluetooth support (PulseAudio's module-bluetooth-discover, PipeWire's bluez5 plugin in WirePlumber)
/// makes the headset's card, with its A2DP and hands-free profiles, as for a real headset.
extension SoundServer {
    /// The simulated headset's Bluetooth address.
    public static let headsetAddress = "00:1B:66:AA:BB:CC"
    /// The address as the servers write it in names (`00_1B_66_AA_BB_CC`).
    static let headsetNamePart = headsetAddress.replacingOccurrences(of: ":", with: "_")
    /// The name of the headset's card on every stack.
    public static let headsetCard = "bluez_card." + headsetNamePart

    private static var toolsFolder: String { Repository.root + "/Tests/Tools" }

    /// Starts the private system bus and the BlueZ stand-in, builds the SCO stand-in, and prepares
    /// what the server's processes need: the bus, the preload and WirePlumber's settings (its Bluetooth
    /// monitor without logind's seat, which a test machine has not).
    func startBluetoothStandIn() throws {
        try startSystemBus()
        let library = root + "/sco_standin.so"
        let (status, output) = try TestProcess.run("gcc", ["-shared", "-fPIC", "-O2", "-o", library,
                                                           Self.toolsFolder + "/sco-standin/sco_standin.c", "-ldl"],
                                                   environment: environment)
        guard status == 0 else { throw HarnessError("the SCO stand-in did not build: \(output)") }
        bluetoothEnvironment["LD_PRELOAD"] = library

        let config = root + "/config/wireplumber"
        switch (kind, kind.privateRelease) {
        case (.pulseaudio, _): break
        case (_, nil):
            try FileManager.default.createDirectory(atPath: config + "/bluetooth.lua.d", withIntermediateDirectories: true)
            try "bluez_monitor.properties[\"with-logind\"] = false\n"
                .write(toFile: config + "/bluetooth.lua.d/51-standin.lua", atomically: true, encoding: .utf8)
        case (_, let release?):
            try FileManager.default.createDirectory(atPath: config + "/wireplumber.conf.d", withIntermediateDirectories: true)
            try "wireplumber.profiles = { main = { monitor.bluez.seat-monitoring = disabled } }\n"
                .write(toFile: config + "/wireplumber.conf.d/51-standin.conf", atomically: true, encoding: .utf8)
            // WIREPLUMBER_CONFIG_DIR replaces WirePlumber 0.5's search path: this folder first, then the prefix's.
            bluetoothEnvironment["WIREPLUMBER_CONFIG_DIR"] = config + ":" + (try ModernPipeWire.installed(release)).prefix + "/usr/share/wireplumber"
        }

        bluezStandIn = try spawn("/usr/bin/python3", [Self.toolsFolder + "/bluez-standin/bluez_standin.py"],
                                 extraEnvironment: ["STANDIN_HEADSET": Self.headsetAddress])
        try waitUntil("the BlueZ stand-in") { bluezStandIn?.output.contains("ready") == true }
    }

    /// Whether this server has the BlueZ stand-in (a simulated headset).
    public var hasBluetoothStandIn: Bool { bluezStandIn != nil }

    /// Waits until the headset is connected: its card has an A2DP and a hands-free profile, is in
    /// A2DP (PipeWire shows a new card as "off" for a moment), and its sink is there. A headset whose
    /// card did not come up within 12 s is switched off and on again (the stand-in's `reconnect`), at
    /// most twice, as a user would: now and then PipeWire's Bluetooth support keeps a freshly connected
    /// headset's device without a profile (a card that stays `off`, or none in pipewire-pulse's list).
    func waitForHeadsetCard() throws {
        // WirePlumber says so when the server's Bluetooth plugin does not load (a library of the
        // prefix lacks a symbol it needs): no card will come, however long the wait.
        if let broken = wirePlumber?.output.split(separator: "\n").first(where: { $0.contains("BlueZ SPA plugin is missing or broken") }) {
            throw HarnessError("\(kind): the server's Bluetooth support did not load: \(broken)")
        }
        var seen: [String] = []
        var state = "no card"
        for attempt in 0..<3 {
            if attempt > 0 {
                let ownView = kind == .pulseaudio ? "" : "; \(deviceProfiles)"
                print("\(kind): the headset's card did not come up (\(state)\(ownView)); switching the headset off and on")
                do { try tellHeadset("reconnect") } catch {
                    throw HarnessError("\(error)\nwhat the waits met before:\n\(seen.joined(separator: "\n"))\n\(serverState)")
                }
            }
            do {
                try waitUntil("the headset's card with both profiles, in A2DP", timeout: .seconds(attempt == 0 ? 12 : 15)) {
                    let card = try headsetCardState()
                    let sink = try headsetSink()
                    state = "profiles \(card.profiles), active \(card.active ?? "none"), sink \(sink ?? "none")"
                    return card.profiles.contains { $0.contains("a2dp") } && card.profiles.contains(where: Self.isHandsFree)
                        && card.active?.contains("a2dp") == true && sink != nil
                }
            } catch {
                seen.append("attempt \(attempt + 1): \(error)\n\(headsetDiagnosis)\n\(graphSummary)")
                // A server that has ended makes no card, however often the headset comes back.
                guard serverIsRunning else { throw HarnessError("the headset's card never came up: \(seen.joined(separator: "\n"))\n\(serverState)") }
                continue
            }
            // The card is up: a check that does not end is no reason to switch the headset off and on.
            return try waitForWirePlumbersProfileChecks()
        }
        throw HarnessError("""
            the headset's card never came up, also after two reconnections:
            \(seen.joined(separator: "\n"))
            the BlueZ stand-in printed: \(bluezStandIn?.output.suffix(800) ?? "")
            WirePlumber's last lines:
            \(graphManagerOutput)
            """)
    }

    /// WirePlumber 0.5.18 checks a newly connected headset's profile once more, 2 s later (its
    /// Bluetooth autoswitch's restore), and puts A2DP back if a hands-free profile is set by then and
    /// nothing records from the headset. Its hook that cancels that check on a profile switch can come
    /// second: a call that activated at that very moment had the bridge's switch reverted (a fresh-clone
    /// `make test` under load, once). A scene with a headset connected waits until every check
    /// WirePlumber armed (one per connection, a reconnection's too) has its outcome, which only its log
    /// tells, so that what the test does next does not meet one.
    private func waitForWirePlumbersProfileChecks() throws {
        guard let wirePlumber else { return }
        var counts = (armed: 0, decided: 0)
        try waitUntil("WirePlumber's checks of the new headset's profile (\(counts.armed) armed, \(counts.decided) ended)") {
            let lines = wirePlumber.output.split(separator: "\n")
            counts.armed = lines.count { $0.contains("Triggering profile restore") }
            counts.decided = lines.count { line in Self.profileCheckOutcomes.contains { line.contains($0) } }
            return counts.decided >= counts.armed
        }
    }

    /// What WirePlumber logs when a profile check it armed ends: cancelled (by a switch, or a newer
    /// check), or run, with or without a change.
    static let profileCheckOutcomes = ["Cancelled profile restore", "no need to restore", "Restoring profile from",
                                       "Could not get current profile", "Could not find valid non-headset profile"]

    /// The headset card as the server's pulse protocol reports it, and the sinks: what a failed wait
    /// on the headset needs to show besides PipeWire's own view (``graphSummary``).
    public var headsetDiagnosis: String {
        let card = (try? headsetCardState()).map { "profiles \($0.profiles), active \($0.active ?? "none")" } ?? "(pactl failed)"
        let sinks = (try? pactl(["list", "short", "sinks"])) ?? "(pactl failed)"
        return "the headset card: \(card)\nsinks:\n\(sinks)"
    }

    /// The headset card's profile names (empty while it has no card) and its active profile, from one
    /// look at the server's cards.
    private func headsetCardState() throws -> (profiles: [String], active: String?) {
        let cards = try pactlJSON(["list", "cards"]) as? [[String: Any]] ?? []
        let card = cards.first { $0["name"] as? String == Self.headsetCard }
        return (((card?["profiles"] as? [String: Any]) ?? [:]).keys.sorted(), card?["active_profile"] as? String)
    }

    /// The headset card's profile names (empty while it has no card).
    public func headsetProfiles() throws -> [String] { try headsetCardState().profiles }

    /// The headset card's active profile.
    public func headsetActiveProfile() throws -> String? { try headsetCardState().active }

    /// The name of the headset's sink in the card's active profile (nil while it has none).
    public func headsetSink() throws -> String? {
        try pactl(["list", "short", "sinks"]).split(separator: "\n").map { $0.split(separator: "\t") }
            .first { $0.count > 1 && $0[1].contains(Self.headsetNamePart) }.map { String($0[1]) }
    }

    /// Whether a profile name is a hands-free one (HFP or HSP) on any stack.
    public static func isHandsFree(_ profile: String) -> Bool {
        profile.contains("headset") || profile.contains("handsfree")
    }

    /// Sends the BlueZ stand-in a command (`disconnect`: the headset goes).
    public func tellHeadset(_ command: String) throws {
        let (status, output) = try TestProcess.run("busctl", ["--address=\(environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "")", "call", "org.bluez",
                                       "/org/bluez", "io.github.audiosession.Test", "Do", "s", command], environment: environment)
        guard status == 0 else {
            // Where the stand-in is, for the message (its faulthandler prints every thread's stack).
            if let standIn = bluezStandIn {
                kill(standIn.pid, SIGUSR1)
                try? waitUntil("the stand-in's stacks", timeout: .seconds(2)) { standIn.output.contains("most recent call first") }
            }
            throw HarnessError("the BlueZ stand-in refused \(command): \(output); it printed: \(bluezStandIn?.output.suffix(3000) ?? "")")
        }
    }
}
