import ArgumentParser
import AudioSessionDaemon

/// `audiosessiond`: runs the bridge.
struct AudioSessionDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessiond",
        abstract: "The audio-session bridge between apps on D-Bus and PulseAudio or PipeWire.",
        version: BridgeCore.version)

    func run() throws {
        throw ValidationError("the bridge is not built yet in this version; see the README's limits")
    }
}

AudioSessionDaemonCommand.main()
