// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// `multiRoute` plays to every output at once through a combined sink the bridge asks for.
@Suite("multiRoute")
struct MultiRouteTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var label: String
        var category: SessionCategory
        var active: Bool
        var extraOutputs: Int
        var combined: Bool
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(label: "active multiRoute with two outputs combines them", category: .multiRoute, active: true,
            extraOutputs: 1, combined: true),
        Row(label: "with three outputs, all three", category: .multiRoute, active: true, extraOutputs: 2, combined: true),
        Row(label: "with one output there is nothing to combine", category: .multiRoute, active: true,
            extraOutputs: 0, combined: false),
        Row(label: "inactive multiRoute combines nothing", category: .multiRoute, active: false, extraOutputs: 1,
            combined: false),
        Row(label: "playback plays to one output", category: .playback, active: true, extraOutputs: 1, combined: false),
    ]

    @Test("which sessions get a combined sink", arguments: rows)
    func combines(row: Row) {
        var scene = Scene()
        for index in 0..<row.extraOutputs {
            scene.plug(.output, "hdmi\(index)", "HDMI \(index)", properties: ["device.form_factor": "tv"])
        }
        let id = scene.createSession("mixer")
        _ = scene.setCategory(id, row.category)
        if row.active { _ = scene.setActive(id, true) }
        let stream = scene.startStream("mixer", in: id)
        let combined = scene.engine.combinedOutputs[id]
        #expect((combined != nil) == row.combined)
        if let combined {
            #expect(combined.outputs == ["speaker"] + (0..<row.extraOutputs).map { "hdmi\($0)" })
            let sink = scene.serverDevices.values.first { $0.name == combined.name }
            #expect(scene.serverStreams[stream]?.device == sink?.id, "the stream plays on the combined sink")
            #expect(scene.engine.computeRoute(scene.engine.sessions[id]!).outputs.map(\.uid)
                        == ["speaker"] + (0..<row.extraOutputs).map { "hdmi\($0)" })
        } else {
            #expect(!scene.serverDevices.values.contains { $0.name.hasPrefix(PolicyEngine.combinedOutputPrefix) })
        }
    }

    @Test("a new output remakes the combined sink; deactivation removes it and the stream goes back")
    func followsOutputsAndActivation() {
        var scene = Scene()
        scene.plug(.output, "hdmi", "HDMI", properties: ["device.form_factor": "tv"])
        let id = scene.createSession("mixer")
        _ = scene.setCategory(id, .multiRoute)
        _ = scene.setActive(id, true)
        let stream = scene.startStream("mixer", in: id)
        let first = scene.engine.combinedOutputs[id]!
        let headphones = scene.plugHeadphones(makeDefault: false)
        let second = scene.engine.combinedOutputs[id]!
        #expect(second.name != first.name && second.outputs == ["speaker", "hdmi", "headphones"])
        #expect(!scene.serverDevices.values.contains { $0.name == first.name }, "the old one is gone")
        #expect(scene.serverStreams[stream]?.device == scene.serverDevices.values.first { $0.name == second.name }?.id)
        scene.unplug(headphones)
        #expect(scene.engine.combinedOutputs[id]?.outputs == ["speaker", "hdmi"])
        scene.stopStream(stream)
        _ = scene.setActive(id, false)
        #expect(scene.engine.combinedOutputs[id] == nil)
        #expect(!scene.serverDevices.values.contains { $0.name.hasPrefix(PolicyEngine.combinedOutputPrefix) })
    }

    @Test("the bridge stopping removes its combined sinks")
    func shutdownRemoves() {
        var scene = Scene()
        scene.plug(.output, "hdmi", "HDMI", properties: ["device.form_factor": "tv"])
        let id = scene.activeSession("mixer", .multiRoute)
        scene.send(.shutdown)
        #expect(scene.engine.combinedOutputs[id] == nil)
        #expect(!scene.serverDevices.values.contains { $0.name.hasPrefix(PolicyEngine.combinedOutputPrefix) })
    }
}
