import ArgumentParser
import AudioSessionKit

/// `audiosessionctl`: inspects and drives the bridge.
struct AudioSessionControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessionctl",
        abstract: "Inspect and drive the audio-session bridge.")

    func run() throws {
        throw ValidationError("no verbs yet in this version; see the README's limits")
    }
}

AudioSessionControl.main()
