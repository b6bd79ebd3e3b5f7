// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import Foundation
import Testing

/// The bridge's errors reach NSError code with Apple's domain, code and a sentence. On Linux a Swift
/// error only becomes an NSError by the unconditional `error as NSError` (the runtime never bridges a
/// conditional `as?` or a `catch … as NSError` pattern), so ported code writes `catch { let error =
/// error as NSError … }`, which means the same on Apple's platforms.
@Suite("Errors as NSError")
struct ErrorBridgingTests {
    @Test("an incompatible mode seen as NSError carries '!cat' and the sentence")
    func incompatibleModeAsNSError() throws {
        let session = AudioSession(busAddress: "unix:path=/nonexistent/bus", appID: "error-port")
        do {
            try session.setCategory(.ambient, mode: .voiceChat, options: [])
            Issue.record("an ambient voiceChat session was accepted")
        } catch {
            let error = error as NSError
            #expect(error.domain == NSOSStatusErrorDomain)
            #expect(error.code == 0x2163_6174)  // '!cat', AVAudioSessionErrorCodeIncompatibleCategory
            #expect(AudioSession.ErrorCode(appleCode: error.code) == .incompatibleCategory)
            #expect(error.localizedDescription.contains("voiceChat"))
            #expect(error.localizedFailureReason == "IncompatibleCategory (!cat)")
        }
    }

    @Test("every code has Apple's value and comes back from it", arguments: AudioSession.ErrorCode.allCases)
    func codesRoundTrip(code: AudioSession.ErrorCode) {
        let error = AudioSessionError(code, "a sentence") as NSError
        #expect(error.code == code.appleCode)
        #expect(AudioSession.ErrorCode(appleCode: error.code) == code)
        #expect(error.localizedDescription == "a sentence")
    }

    @Test("Apple's published values", arguments: [
        (AudioSession.ErrorCode.badParam, -50), (.insufficientPriority, 561_017_449), (.isBusy, 560_030_580),
        (.cannotStartPlaying, 561_015_905), (.cannotStartRecording, 561_145_187), (.sessionNotActive, 1_768_841_571),
        (.mediaServicesFailed, 1_836_282_486), (.cannotInterruptOthers, 560_557_684), (.unspecified, 2_003_329_396),
    ])
    func appleValues(code: AudioSession.ErrorCode, value: Int) {
        #expect(code.appleCode == value)
    }
}
