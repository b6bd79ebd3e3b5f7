// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Testing

/// Every word parses from its string and prints back; unknown strings are refused by name.
@Suite("Parsing the vocabulary")
struct VocabularyParsingTests {
    func roundTrips<Word: VocabularyWord>(_: Word.Type) throws {
        for word in Word.allCases {
            #expect(try Word.parse(word.rawValue) == word)
            #expect(word.description == word.rawValue)
        }
    }

    @Test("every word round-trips through its string")
    func everyWordRoundTrips() throws {
        try roundTrips(SessionCategory.self)
        try roundTrips(SessionMode.self)
        try roundTrips(InterruptionType.self)
        try roundTrips(InterruptionReason.self)
        try roundTrips(RouteChangeReason.self)
        try roundTrips(SilenceSecondaryAudioHintType.self)
        try roundTrips(PortType.self)
        try roundTrips(ErrorCode.self)
    }

    @Test("an unknown category is BadParam naming the word and the accepted ones")
    func unknownCategory() {
        #expect(throws: AudioSessionError.self) { try SessionCategory.parse("loud") }
        do {
            _ = try SessionConfiguration(category: "loud", mode: "default", options: [])
        } catch {
            #expect(error.code == .badParam)
            #expect(error.message.contains("'loud'") && error.message.contains("playAndRecord"))
        }
    }

    @Test("unknown modes, options and port types are BadParam")
    func unknownWords() {
        let attempts: [() throws -> Void] = [
            { _ = try SessionMode.parse("karaoke") },
            { _ = try CategoryOptions.parse(["mixWithOthers", "louder"]) },
            { _ = try SetActiveOptions.parse(["notifyEveryone"]) },
            { _ = try InterruptionOptions.parse(["resumeNow"]) },
            { _ = try PortType.parse("Headphone") },
        ]
        for attempt in attempts {
            let error = #expect(throws: AudioSessionError.self) { try attempt() }
            #expect(error?.code == .badParam)
        }
    }

    @Test("options parse and print in a fixed order")
    func optionNames() throws {
        let options = try CategoryOptions.parse(["defaultToSpeaker", "allowBluetooth", "mixWithOthers"])
        #expect(options.names == ["mixWithOthers", "allowBluetooth", "defaultToSpeaker"])
        #expect(try SetActiveOptions.parse(["notifyOthersOnDeactivation"]).names == ["notifyOthersOnDeactivation"])
        #expect(try InterruptionOptions.parse(["shouldResume"]) == .shouldResume)
    }

    @Test("Apple's raw values")
    func appleValues() {
        #expect(InterruptionType.began.appleValue == 1 && InterruptionType.ended.appleValue == 0)
        #expect(InterruptionOptions.shouldResume.rawValue == 1)
        #expect(SilenceSecondaryAudioHintType.begin.appleValue == 1 && SilenceSecondaryAudioHintType.end.appleValue == 0)
        let reasons: [(RouteChangeReason, UInt)] = [
            (.unknown, 0), (.newDeviceAvailable, 1), (.oldDeviceUnavailable, 2), (.categoryChange, 3), (.override, 4),
            (.wakeFromSleep, 6), (.noSuitableRouteForCategory, 7), (.routeConfigurationChange, 8),
        ]
        for (reason, value) in reasons {
            #expect(reason.appleValue == value)
            #expect(RouteChangeReason(appleValue: value) == reason)
        }
        #expect(RouteChangeReason(appleValue: 5) == nil)
        #expect(CategoryOptions.mixWithOthers.rawValue == 1 && CategoryOptions.duckOthers.rawValue == 2)
        #expect(ErrorCode.incompatibleCategory.appleCode == 0x2163_6174)  // '!cat'
    }

    @Test("error codes map to D-Bus names and back")
    func errorNames() {
        for code in ErrorCode.allCases {
            #expect(code.dbusName == "io.github.audiosession.Error.\(code.rawValue)")
            #expect(ErrorCode(dbusName: code.dbusName) == code)
        }
        #expect(ErrorCode(dbusName: "org.freedesktop.DBus.Error.InvalidArgs") == nil)
    }
}
