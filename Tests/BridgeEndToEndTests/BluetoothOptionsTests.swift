// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// `allowBluetooth` and `allowBluetoothA2DP` on a real server, with a headset that has both profiles:
/// the BlueZ stand-in's, whose card the server's own Bluetooth support makes (`SoundServer+Bluetooth`).
/// The bridge switches the card's profile when a session activates and switches it back when the
/// activation ends (DESIGN §2, "Bluetooth and AirPlay").
@Suite("Bluetooth options against real servers", .serialized, .threadOfItsOwn)
struct BluetoothOptionsTests {
    static let stacks = SoundServerKind.underTest

    @Test("allowBluetooth: a call that records switches the headset from A2DP to hands-free while it is active",
          arguments: Self.stacks)
    func allowBluetooth(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind, bluetoothHeadset: true)
        defer { scenario.stop() }
        let server = scenario.server
        let a2dp = try #require(try server.headsetActiveProfile())
        #expect(a2dp.contains("a2dp"), "a connected headset starts in A2DP")
        try server.setDefaultSink(try #require(try server.headsetSink()))
        let app = try scenario.client()
        let call = try scenario.session(app, "call", "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"], active: false)
        try scenario.waitUntil("the call's route on the headset in A2DP") { try outputPortTypes(app, call.path) == ["BluetoothA2DPOutput"] }

        try app.setActive(call.path, true)
        try scenario.waitUntil("the headset in its hands-free profile") {
            try server.headsetActiveProfile().map(SoundServer.isHandsFree) == true
        }
        try app.setActive(call.path, false)
        try scenario.waitUntil("the headset back in \(a2dp)") { try server.headsetActiveProfile() == a2dp }
    }

    @Test("allowBluetoothA2DP: a playAndRecord session that does not record from the headset switches it back to A2DP",
          arguments: Self.stacks)
    func allowBluetoothA2DP(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind, bluetoothHeadset: true)
        defer { scenario.stop() }
        let server = scenario.server
        // The user put the headset in hands-free, and its sink is the default output.
        let handsFree = try #require(try server.headsetProfiles().first(where: SoundServer.isHandsFree))
        try server.pactl(["set-card-profile", SoundServer.headsetCard, handsFree])
        try scenario.waitUntil("the headset in \(handsFree)") { try server.headsetActiveProfile().map(SoundServer.isHandsFree) == true }
        let userProfile = try #require(try server.headsetActiveProfile())
        try scenario.waitUntil("the hands-free sink") { try server.headsetSink() != nil }
        try server.setDefaultSink(try #require(try server.headsetSink()))
        let app = try scenario.client()
        let session = try scenario.session(app, "talk", "playAndRecord", options: ["allowBluetoothA2DP"], active: false)
        try scenario.waitUntil("the session's route on the hands-free headset") { try outputPortTypes(app, session.path) == ["BluetoothHFP"] }

        try app.setActive(session.path, true)
        try scenario.waitUntil("the headset in A2DP") { try server.headsetActiveProfile()?.contains("a2dp") == true }
        try app.setActive(session.path, false)
        try scenario.waitUntil("the headset back in the user's \(userProfile)") { try server.headsetActiveProfile() == userProfile }
    }

    @Test("a call on the headset whose device goes is interrupted with routeDisconnected", arguments: Self.stacks)
    func callLosesItsHeadset(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind, bluetoothHeadset: true)
        defer { scenario.stop() }
        let server = scenario.server
        try server.setDefaultSink(try #require(try server.headsetSink()))
        let app = try scenario.client()
        let call = try scenario.session(app, "call", "playAndRecord", mode: "voiceChat")
        // voiceChat implies allowBluetooth: the headset goes to hands-free for the call's microphone.
        try scenario.waitUntil("the call on the hands-free headset") { try outputPortTypes(app, call.path) == ["BluetoothHFP"] }

        try server.tellHeadset("disconnect")
        try scenario.waitUntil("the headset's card gone") { try server.headsetProfiles().isEmpty }
        try scenario.waitUntil("Interruption began with routeDisconnected") {
            app.interruptions(call.path).contains { $0.type == "began" && $0.reason == "routeDisconnected" }
        }
        #expect(app.routeChanges(call.path).contains { $0.previousOutputs.first?.hasPrefix("Bluetooth") == true },
                "the route change away from the headset")
        #expect(try app.property(call.path, "IsActive") == .bool(false), "the call's session was ended")
        // The card goes as well when the process that made it crashes: the headset's going is no crash.
        #expect(server.endedServerProcesses.isEmpty, "the server's processes outlive the headset's going")
    }

    /// The port types of a session's `CurrentRoute` outputs.
    private func outputPortTypes(_ client: BusClient, _ path: String) throws -> [String] {
        let route = try client.property(path, "CurrentRoute").structFields ?? []
        guard route.count == 2 else { return [] }
        return route[1].arrayItems?.compactMap { $0.stringDictionary?["portType"]?.stringValue } ?? []
    }
}
