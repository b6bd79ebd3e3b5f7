// SPDX-License-Identifier: Apache-2.0
// voip-call: a call that speaks and listens. It activates its session only for the call
// (playAndRecord, voiceChat), plays a tone and records from the input for the given number of
// seconds (default 2), pausing the recording while the microphone is muted or another call
// interrupts, and deactivates with notifyOthersOnDeactivation. With `override-muted-microphone`
// as its second argument, a muted microphone interrupts nothing (the app shows its own mute state).
import AudioSessionKit
import AudioSessionPulse
import Foundation

/// Prints a line at once (output may be a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.first.flatMap(Double.init) ?? 2
let options: AudioSession.CategoryOptions = arguments.contains("override-muted-microphone") ? [.overrideMutedMicrophoneInterruption] : []
let session = AudioSession(appID: "voip-call")
do {
    try session.setCategory(.playAndRecord, mode: .voiceChat, options: options)
    try session.setActive(true)
    let player = try SessionTonePlayer(session: session, appName: "voip-call", role: "phone")
    let recorder = try SessionRecorder(session: session, appName: "voip-call", role: "phone")
    recorder.controller?.onAction = { say("voip-call: \($0)") }
    say("voip-call: call started")
    Thread.sleep(forTimeInterval: seconds)
    say("voip-call: recorded \(recorder.framesRead) frames")
    recorder.stop()
    player.stop()
    // The bridge may still see the streams for a moment after they stopped: IsBusy until they are gone.
    for attempt in 1...100 {
        do {
            try session.setActive(false, options: .notifyOthersOnDeactivation)
            break
        } catch let error as AudioSessionError where error.code == .isBusy && attempt < 100 {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
    say("voip-call: call ended")
} catch {
    FileHandle.standardError.write(Data("voip-call: \(error)\n".utf8))
    exit(1)
}
