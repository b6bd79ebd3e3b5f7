// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// A stream reported before its properties are all there (a native PipeWire client through
/// pipewire-pulse) is governed once they come.
@Suite("Streams whose properties come late")
struct LatePropertiesTests {
    @Test("a stream first seen with no app and no role joins its policy's session once they are reported")
    func joinsWhenPropertiesArrive() {
        var scene = Scene()
        let id = scene.startStream("")
        #expect(scene.engine.session(of: id) == nil, "nothing to go by yet")
        scene.serverStreams[id]?.app = AppIdentity(name: "Music Player")
        scene.serverStreams[id]?.role = "music"
        scene.send(.streamChanged(scene.serverStreams[id]!))
        let session = scene.engine.session(of: id)
        #expect(session.flatMap { scene.engine.sessions[$0]?.policy.name } == "media-player")
        #expect(session.flatMap { scene.engine.sessions[$0]?.isActive } == true)
    }
}
