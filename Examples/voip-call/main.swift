// voip-call: a call. It activates its session only for the call (playAndRecord, voiceChat), plays
// for the given number of seconds (default 2), and deactivates with notifyOthersOnDeactivation.
import AudioSessionKit
import AudioSessionPulse
import Foundation

/// Prints a line at once (output may be a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 2
let session = AudioSession.sharedInstance()
do {
    try session.setCategory(.playAndRecord, mode: .voiceChat, options: [])
    try session.setActive(true)
    say("voip-call: call started")
    let player = try SessionTonePlayer(session: session, appName: "voip-call", role: "phone")
    Thread.sleep(forTimeInterval: seconds)
    player.stop()
    // The bridge may still see the stream for a moment after it stopped: IsBusy until it is gone.
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
