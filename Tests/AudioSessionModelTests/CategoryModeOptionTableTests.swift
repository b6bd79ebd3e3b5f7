// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Testing

/// The tables of DESIGN.md §1, row by row.
@Suite("Categories, modes and options (DESIGN.md §1)")
struct CategoryModeOptionTableTests {
    /// category → (silenced by silent mode/lock, mixes by default, input, output)
    static let categoryRows: [(SessionCategory, silenced: Bool, alwaysMixes: Bool, input: Bool, output: Bool)] = [
        (.ambient, true, true, false, true),
        (.soloAmbient, true, false, false, true),
        (.playback, false, false, false, true),
        (.record, false, false, true, false),
        (.playAndRecord, false, false, true, true),
        (.audioProcessing, false, false, false, false),
        (.multiRoute, false, false, true, true),
    ]

    @Test("category table row", arguments: categoryRows)
    func categoryRow(row: (SessionCategory, silenced: Bool, alwaysMixes: Bool, input: Bool, output: Bool)) throws {
        let (category, silenced, alwaysMixes, input, output) = row
        #expect(category.isSilencedBySilentModeAndLock == silenced)
        #expect(category.alwaysMixes == alwaysMixes)
        #expect(category.hasInput == input)
        #expect(category.hasOutput == output)
        let configuration = try SessionConfiguration(category: category)
        #expect(configuration.mixesWithOthers == alwaysMixes)
    }

    @Test("mixWithOthers makes playback, playAndRecord and multiRoute mix", arguments: [
        SessionCategory.playback, .playAndRecord, .multiRoute,
    ])
    func mixWithOthersMixes(category: SessionCategory) throws {
        #expect(try SessionConfiguration(category: category, options: .mixWithOthers).mixesWithOthers)
        #expect(try !SessionConfiguration(category: category).mixesWithOthers)
    }

    static let modeRows: [(SessionMode, Set<SessionCategory>)] = [
        (.default, Set(SessionCategory.allCases)),
        (.voiceChat, [.playAndRecord]),
        (.videoChat, [.playAndRecord]),
        (.gameChat, [.playAndRecord]),
        (.videoRecording, [.playAndRecord, .record]),
        (.measurement, [.playAndRecord, .record, .playback]),
        (.moviePlayback, [.playback]),
        (.spokenAudio, [.playback]),
        (.voicePrompt, [.playback, .playAndRecord]),
    ]

    @Test("mode table row: allowed pairs succeed, every other pair is IncompatibleCategory", arguments: modeRows)
    func modeRow(row: (SessionMode, Set<SessionCategory>)) {
        let (mode, allowed) = row
        for category in SessionCategory.allCases {
            if allowed.contains(category) {
                #expect((try? SessionConfiguration(category: category, mode: mode)) != nil,
                        "\(category)+\(mode) should be allowed")
            } else {
                let error = #expect(throws: AudioSessionError.self) {
                    try SessionConfiguration(category: category, mode: mode)
                }
                #expect(error?.code == .incompatibleCategory)
                #expect(error?.message.contains(mode.rawValue) == true && error?.message.contains(category.rawValue) == true)
            }
        }
    }

    static let optionRows: [(String, Set<SessionCategory>)] = [
        ("mixWithOthers", [.playback, .playAndRecord, .multiRoute]),
        ("duckOthers", [.playback, .playAndRecord, .multiRoute]),
        ("interruptSpokenAudioAndMixWithOthers", [.playback, .playAndRecord, .multiRoute]),
        ("allowBluetooth", [.playAndRecord, .record]),
        ("allowBluetoothA2DP", [.playAndRecord]),
        ("allowAirPlay", [.playAndRecord]),
        ("defaultToSpeaker", [.playAndRecord]),
        ("overrideMutedMicrophoneInterruption", [.playAndRecord, .record, .multiRoute]),
    ]

    @Test("option table row: allowed categories accept it, others refuse it with BadParam naming both",
          arguments: optionRows)
    func optionRow(row: (String, Set<SessionCategory>)) throws {
        let (name, allowed) = row
        let option = try CategoryOptions.parse([name])
        for category in SessionCategory.allCases {
            do {
                let configuration = try SessionConfiguration(category: category, options: option)
                #expect(allowed.contains(category), "\(name) should be refused for \(category)")
                #expect(configuration.options.isSuperset(of: option))
            } catch {
                #expect(!allowed.contains(category), "\(name) should be allowed for \(category)")
                #expect(error.code == .badParam)
                #expect(error.message.contains(name) && error.message.contains(category.rawValue))
            }
        }
    }

    @Test("implied options")
    func impliedOptions() throws {
        #expect(try SessionConfiguration(category: .playback, options: .duckOthers).options.contains(.mixWithOthers))
        #expect(try SessionConfiguration(category: .playback, options: .interruptSpokenAudioAndMixWithOthers)
            .options.names == ["mixWithOthers", "interruptSpokenAudioAndMixWithOthers"])
        #expect(try SessionConfiguration(category: .playAndRecord, mode: .voiceChat).options == .allowBluetooth)
        #expect(try SessionConfiguration(category: .playAndRecord, mode: .videoChat).options
            == [.allowBluetooth, .defaultToSpeaker])
        #expect(try SessionConfiguration(category: .playAndRecord, mode: .voiceChat).isCall)
        #expect(try !SessionConfiguration(category: .playAndRecord, mode: .gameChat).isCall)
    }

    @Test("changing the mode drops what the old mode implied, keeps what was asked, adds what the new one implies")
    func changingTheMode() throws {
        let call = try SessionConfiguration(category: .playAndRecord, mode: .videoChat, options: .duckOthers)
        let plain = try call.withMode(.default)
        #expect(plain.options == [.duckOthers, .mixWithOthers])
        #expect(try plain.withMode(.voiceChat).options == [.duckOthers, .mixWithOthers, .allowBluetooth])
        #expect(throws: AudioSessionError.self) { try SessionConfiguration(category: .playback).withMode(.voiceChat) }
    }

    @Test("the initial configuration is soloAmbient, default, no options")
    func initialConfiguration() {
        #expect(SessionConfiguration.initial.category == .soloAmbient)
        #expect(SessionConfiguration.initial.mode == .default)
        #expect(SessionConfiguration.initial.options.isEmpty)
    }
}
