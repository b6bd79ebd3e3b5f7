// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The errors and reasons the bridge produces where Apple produces them (DESIGN §2, "Errors and
/// reasons the bridge produces"), one table per word.
@Suite("Errors and reasons produced")
struct ProducedWordsTests {
    // MARK: CannotStartRecording

    struct RecordingRow: CustomTestStringConvertible, Sendable {
        var category: SessionCategory
        var refused: Bool
        var testDescription: String { "\(category)" }
    }

    static let recordingRows: [RecordingRow] = [
        RecordingRow(category: .soloAmbient, refused: true), RecordingRow(category: .ambient, refused: true),
        RecordingRow(category: .playback, refused: true), RecordingRow(category: .audioProcessing, refused: true),
        RecordingRow(category: .record, refused: false), RecordingRow(category: .playAndRecord, refused: false),
        RecordingRow(category: .multiRoute, refused: false),
    ]

    @Test("CannotStartRecording: input in a category without input records silence; a preferred input is refused",
          arguments: recordingRows)
    func cannotStartRecording(row: RecordingRow) {
        var scene = Scene()
        let id = scene.createSession("app")
        _ = scene.setCategory(id, row.category)
        let recording = scene.startStream("app", in: id, direction: .input)
        #expect(scene.isMuted(recording) == row.refused)
        if row.refused {
            #expect(scene.actions.contains {
                if case .setStreamMute(recording, true, let why) = $0 { return why.hasPrefix("CannotStartRecording") }
                return false
            })
        }
        let owner = scene.owner(of: id)
        let error = scene.error(scene.call { .setPreferredInput($0, id, caller: owner, uid: "mic") })
        #expect(error == (row.refused ? .cannotStartRecording : nil))
        // Choosing a category with input lets it record.
        _ = scene.setCategory(id, .playAndRecord)
        #expect(!scene.isMuted(recording))
    }

    @Test("CannotStartPlaying: output in a category without output plays silence",
          arguments: [(SessionCategory.record, true), (.audioProcessing, true), (.playback, false), (.playAndRecord, false),
                      (.soloAmbient, false)])
    func cannotStartPlaying(category: SessionCategory, refused: Bool) {
        var scene = Scene()
        let id = scene.createSession("app")
        _ = scene.setCategory(id, category)
        let stream = scene.startStream("app", in: id)
        #expect(scene.isMuted(stream) == refused)
        if refused {
            #expect(scene.actions.contains {
                if case .setStreamMute(stream, true, let why) = $0 { return why.hasPrefix("CannotStartPlaying") }
                return false
            })
        }
        _ = scene.setCategory(id, .playback)
        #expect(!scene.isMuted(stream))
    }

    @Test("a policy session records whatever its category: its policy file chose it")
    func policySessionsRecord() {
        var scene = Scene()
        let recording = scene.startStream("Music Player", direction: .input)
        #expect(!scene.isMuted(recording))
    }

    // MARK: CannotInterruptOthers

    struct BackgroundRow: CustomTestStringConvertible, Sendable {
        var category: SessionCategory
        var options: CategoryOptions
        var locked: Bool
        var expected: ErrorCode?
        var testDescription: String { "\(category) \(options.names) locked: \(locked)" }
    }

    static let backgroundRows: [BackgroundRow] = [
        BackgroundRow(category: .soloAmbient, options: [], locked: true, expected: .cannotInterruptOthers),
        BackgroundRow(category: .soloAmbient, options: [], locked: false, expected: nil),
        BackgroundRow(category: .ambient, options: [], locked: true, expected: nil),
        BackgroundRow(category: .playback, options: [], locked: true, expected: nil),
        BackgroundRow(category: .playAndRecord, options: [], locked: true, expected: nil),
    ]

    @Test("CannotInterruptOthers: a non-mixable session the lock silences may not activate while locked",
          arguments: backgroundRows)
    func cannotInterruptOthers(row: BackgroundRow) {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let id = scene.createSession("app")
        _ = scene.setCategory(id, row.category, options: row.options)
        scene.send(.screenLocked(row.locked))
        scene.mark()
        #expect(scene.error(scene.setActive(id, true)) == row.expected)
        #expect(scene.engine.sessions[id]?.isActive == (row.expected == nil))
        if row.expected != nil { #expect(scene.interruptions(music).isEmpty) }
    }

    // MARK: appWasSuspended

    @Test("appWasSuspended: sleep suspends every active explicit session, and it may activate again")
    func appWasSuspended() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let idle = scene.createSession("idle")
        let policyStream = scene.startStream("Game")
        let policySession = scene.engine.streams[policyStream]!.session!
        scene.mark()
        scene.send(.sleep)
        #expect(scene.interruptions(music) == [.init(type: .began, reason: .appWasSuspended, shouldResume: false)])
        #expect(scene.engine.sessions[music]?.isActive == false)
        #expect(!scene.isMuted(stream), "the streams are left as they are")
        #expect(scene.interruptions(idle).isEmpty)
        #expect(scene.interruptions(policySession).isEmpty)
        scene.send(.wake)
        #expect(scene.error(scene.setActive(music, true)) == nil)
    }

    // MARK: routeDisconnected

    static let bluetooth = ["device.bus": "bluetooth", "api.bluez5.address": "00:11:22:33:44:55",
                            "api.bluez5.profile": "headset-head-unit"]

    /// (a call?, the headset comes back in another profile, and goes again within the window)
    @Test("routeDisconnected: a call whose Bluetooth headset goes for good is interrupted; a profile switch is not",
          arguments: [(true, false, false), (false, false, false), (true, true, false), (true, true, true)])
    func routeDisconnected(isCall: Bool, comesBack: Bool, goesAgain: Bool) {
        var scene = Scene()
        let id = isCall ? scene.activeSession("call", .playAndRecord, mode: .voiceChat)
            : scene.activeSession("music", .playback)
        _ = scene.startStream(isCall ? "call" : "music", in: id)
        let headset = scene.plug(.output, "bluez_output.hfp", "Headset", properties: Self.bluetooth)
        scene.setDefault(.output, "bluez_output.hfp", moveStreams: true)
        scene.settle()
        scene.mark()
        scene.unplug(headset)
        if comesBack {
            scene.advance(100)
            let again = scene.plug(.output, "bluez_output.hfp2", "Headset", properties: Self.bluetooth)
            scene.setDefault(.output, "bluez_output.hfp2", moveStreams: true)
            if goesAgain {
                scene.advance(50)
                scene.unplug(again)
            }
        }
        scene.settle()
        let expected: [Scene.SeenInterruption] = isCall && (!comesBack || goesAgain)
            ? [.init(type: .began, reason: .routeDisconnected, shouldResume: false)] : []
        #expect(scene.interruptions(id) == expected)
        #expect(scene.engine.sessions[id]?.isActive == expected.isEmpty)
    }

    // MARK: unknown

    @Test("unknown: a route that changed while the server was away is reported after the reset")
    func unknownAfterServerLoss() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        _ = scene.startStream("music", in: music)
        let headphones = scene.plugHeadphones()
        scene.settle()
        scene.mark()
        scene.send(.serverLost)
        scene.serverDevices[headphones] = nil
        scene.serverStreams = [:]
        scene.send(.deviceAppeared(scene.serverDevices[scene.speaker]!))
        scene.send(.deviceAppeared(scene.serverDevices[scene.microphone]!))
        scene.send(.serverInfo(name: "fake", version: "1", defaultOutput: "speaker", defaultInput: "mic"))
        scene.send(.serverReset)
        #expect(scene.routeReasons(music) == [.unknown])
        #expect(scene.routeChanges(music).first?.previous.outputs.map(\.portType) == [.headphones])
    }
}
