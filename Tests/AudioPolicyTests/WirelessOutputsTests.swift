// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The options that admit wireless outputs: the Bluetooth profiles a session's activation asks for,
/// and AirPlay sinks only with `allowAirPlay` in playAndRecord.
@Suite("Bluetooth and AirPlay options")
struct WirelessOutputsTests {
    struct ProfileRow: CustomTestStringConvertible, Sendable {
        var label: String
        var category: SessionCategory
        var mode: SessionMode = .default
        var options: CategoryOptions
        var activeProfile: String
        /// The profile the headset's sink names itself in (`api.bluez5.profile`), when not the card's.
        var sinkProfile: String?
        var expected: String?
        var testDescription: String { label }
    }

    static let profileRows: [ProfileRow] = [
        ProfileRow(label: "allowBluetooth switches A2DP to hands-free", category: .playAndRecord,
                   options: [.allowBluetooth], activeProfile: "a2dp-sink", expected: "headset-head-unit"),
        ProfileRow(label: "a voice chat (allowBluetooth implied) switches to hands-free", category: .playAndRecord,
                   mode: .voiceChat, options: [], activeProfile: "a2dp-sink", expected: "headset-head-unit"),
        ProfileRow(label: "allowBluetooth keeps hands-free", category: .playAndRecord, options: [.allowBluetooth],
                   activeProfile: "headset-head-unit", expected: nil),
        ProfileRow(label: "allowBluetoothA2DP switches hands-free back to A2DP", category: .playAndRecord,
                   options: [.allowBluetoothA2DP], activeProfile: "headset-head-unit", expected: "a2dp-sink"),
        ProfileRow(label: "allowBluetoothA2DP keeps A2DP", category: .playAndRecord, options: [.allowBluetoothA2DP],
                   activeProfile: "a2dp-sink", expected: nil),
        ProfileRow(label: "both: hands-free comes first, as on Apple's platforms", category: .playAndRecord,
                   options: [.allowBluetooth, .allowBluetoothA2DP], activeProfile: "a2dp-sink", expected: "headset-head-unit"),
        ProfileRow(label: "playAndRecord without either option leaves the profile", category: .playAndRecord,
                   options: [], activeProfile: "headset-head-unit", expected: nil),
        ProfileRow(label: "playback leaves the profile", category: .playback, options: [],
                   activeProfile: "headset-head-unit", expected: nil),
        ProfileRow(label: "a card reported off while its A2DP sink is there is in A2DP, and goes back to it",
                   category: .playAndRecord, mode: .voiceChat, options: [], activeProfile: "off", sinkProfile: "a2dp-sink",
                   expected: "headset-head-unit"),
    ]

    static let bluetooth = ["device.bus": "bluetooth", "api.bluez5.address": "00:11:22:33:44:55"]

    @Test("the profile an activation asks for, and back when it ends", arguments: profileRows)
    func profiles(row: ProfileRow) {
        var scene = Scene()
        scene.send(.cardAppeared(CardInfo(index: 7, name: "bluez_card", profiles: [
            .init(name: "a2dp-sink"), .init(name: "headset-head-unit"), .init(name: "off"),
        ], activeProfile: row.activeProfile)))
        var properties = Self.bluetooth
        properties["api.bluez5.profile"] = row.sinkProfile ?? row.activeProfile
        _ = scene.plug(.output, "bluez_output.headset", "Headset", properties: properties, card: 7)
        scene.setDefault(.output, "bluez_output.headset", moveStreams: true)
        scene.mark()
        let id = scene.activeSession("app", row.category, mode: row.mode, options: row.options)
        let switched = scene.actions.compactMap { action -> String? in
            if case .setCardProfile(7, let profile, _) = action { return profile } else { return nil }
        }
        #expect(switched == (row.expected.map { [$0] } ?? []))
        scene.mark()
        _ = scene.setActive(id, false)
        let restored = scene.actions.compactMap { action -> String? in
            if case .setCardProfile(7, let profile, _) = action { return profile } else { return nil }
        }
        #expect(restored == (row.expected == nil ? [] : [row.sinkProfile ?? row.activeProfile]))
    }

    /// How a headset in A2DP becomes the output of a call that is already active.
    enum HeadsetArrival: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case defaultMoves = "the default moves to a connected headset"
        case headsetConnects = "a headset connects and becomes the default"
        var testDescription: String { rawValue }
    }

    /// The headset's card (index 7) in `profile`, and its sink in that profile.
    private static func headset(in profile: String, _ scene: inout Scene, makeDefault: Bool) -> DeviceID {
        scene.send(.cardAppeared(CardInfo(index: 7, name: "bluez_card", profiles: [
            .init(name: "a2dp-sink"), .init(name: "headset-head-unit"), .init(name: "off"),
        ], activeProfile: profile)))
        var properties = bluetooth
        properties["api.bluez5.profile"] = profile
        let sink = scene.plug(.output, "bluez_output.headset", "Headset", properties: properties, card: 7)
        if makeDefault { scene.setDefault(.output, "bluez_output.headset", moveStreams: true) }
        return sink
    }

    private static func profileSwitches(_ scene: Scene) -> [String] {
        scene.actions.compactMap { action -> String? in
            if case .setCardProfile(7, let profile, _) = action { return profile } else { return nil }
        }
    }

    @Test("a call already active when a headset becomes its output switches that headset to hands-free, once",
          arguments: HeadsetArrival.allCases)
    func headsetArrivesDuringCall(arrival: HeadsetArrival) {
        var scene = Scene()
        if arrival == .defaultMoves { _ = Self.headset(in: "a2dp-sink", &scene, makeDefault: false) }
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat, options: [])
        let music = scene.activeSession("music", .playback, options: [.mixWithOthers])
        scene.mark()
        switch arrival {
        case .defaultMoves: scene.setDefault(.output, "bluez_output.headset", moveStreams: true)
        case .headsetConnects: _ = Self.headset(in: "a2dp-sink", &scene, makeDefault: true)
        }
        #expect(Self.profileSwitches(scene) == ["headset-head-unit"], "the call's new headset goes to hands-free")
        #expect(scene.engine.sessions[music]?.profileSwitch == nil, "a playback session asks for no profile")

        // The server switches; then the user picks A2DP on the same headset during the call: it stays.
        scene.mark()
        for profile in ["headset-head-unit", "a2dp-sink"] {
            scene.unplug(scene.engine.device(named: "bluez_output.headset")!.id)
            _ = Self.headset(in: profile, &scene, makeDefault: true)
        }
        #expect(Self.profileSwitches(scene).isEmpty, "the user's later choice on that headset stays")

        // The call's end gives the headset back the profile it had before the bridge switched it.
        scene.mark()
        _ = scene.setActive(call, false)
        #expect(Self.profileSwitches(scene) == ["a2dp-sink"])
    }

    struct AirPlayRow: CustomTestStringConvertible, Sendable {
        var category: SessionCategory
        var options: CategoryOptions
        var onAirPlay: Bool
        var testDescription: String { "\(category) \(options.names)" }
    }

    static let airPlayRows: [AirPlayRow] = [
        AirPlayRow(category: .playAndRecord, options: [], onAirPlay: false),
        AirPlayRow(category: .playAndRecord, options: [.allowAirPlay], onAirPlay: true),
        AirPlayRow(category: .playback, options: [], onAirPlay: true),
    ]

    @Test("an AirPlay default admits playAndRecord only with allowAirPlay", arguments: airPlayRows)
    func airPlay(row: AirPlayRow) {
        var scene = Scene()
        let id = scene.activeSession("app", row.category, options: row.options)
        let stream = scene.startStream("app", in: id)
        let raop = scene.plug(.output, "raop_output.living-room", "Living Room", properties: ["device.bus": "network"])
        scene.setDefault(.output, "raop_output.living-room", moveStreams: true)
        #expect((scene.serverStreams[stream]?.device == raop) == row.onAirPlay)
        #expect((scene.engine.computeRoute(scene.engine.sessions[id]!).outputs.first?.portType == .airPlay) == row.onAirPlay)
        if !row.onAirPlay {
            // Allowing AirPlay later lets it follow the default.
            _ = scene.setCategory(id, row.category, options: row.options.union(.allowAirPlay))
            #expect(scene.serverStreams[stream]?.device == raop)
        }
    }

    /// How a stream of a playAndRecord call came onto an AirPlay sink.
    enum AirPlayLanding: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case serverBeforeDefault = "the server moved it before the bridge heard of the new default"
        case serverMuchLater = "the server moved it back two seconds after the bridge moved it off"
        case user = "a user moved it there"
        var testDescription: String { rawValue }
    }

    @Test("a stream of a session without allowAirPlay that lands on an AirPlay sink is moved off, whoever moved it",
          arguments: [SessionCategory.playAndRecord, .playback], AirPlayLanding.allCases)
    func airPlayLanding(category: SessionCategory, landing: AirPlayLanding) {
        var scene = Scene()
        let id = scene.activeSession("app", category)
        let stream = scene.startStream("app", in: id)
        let speaker = scene.serverStreams[stream]!.device!
        let raop = scene.plug(.output, "raop_output.living-room", "Living Room", properties: ["device.bus": "network"])
        switch landing {
        case .serverBeforeDefault:
            scene.userMoves(stream, to: raop)
            scene.setDefault(.output, "raop_output.living-room", moveStreams: false)
        case .serverMuchLater:
            scene.setDefault(.output, "raop_output.living-room", moveStreams: true)
            scene.advance(2000)
            scene.userMoves(stream, to: raop)
        case .user:
            scene.userMoves(stream, to: raop)
        }
        #expect(scene.serverStreams[stream]?.device == (category == .playAndRecord ? speaker : raop))
    }
}
