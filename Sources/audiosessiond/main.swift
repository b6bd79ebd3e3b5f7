// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CommandLineSupport
import AudioSessionDaemon
import AudioSessionIPC
import DBusKit
import FoundationEssentials
import Glibc

/// `audiosessiond`: runs the bridge.
struct AudioSessionDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessiond",
        abstract: "The audio-session bridge between apps on D-Bus and PulseAudio or PipeWire.",
        version: BridgeCore.version)

    enum Bus: String, ExpressibleByArgument { case session, system }
    enum Format: String, ExpressibleByArgument { case text, json }

    @Option(help: "The bus to serve on.") var bus: Bus = .session
    @Option(help: "The sound server's socket (a path or unix:PATH); default: libpulse's.") var server: String?
    @Option(help: "A folder of policy files (may be repeated).") var policies: [String] = []
    @Option(help: "The event log's format.") var log: Format = .text
    @Option(help: "Where the event log goes (a file, or - for stdout).") var logFile: String?
    @Flag(help: "Also log to the systemd journal.") var journald = false
    @Flag(help: "Run without a bus name: observe the server, apply policy sessions, and log.") var headless = false
    @Flag(help: "Put every stream a stopped bridge left changed back to the user's levels, and exit.")
    var restoreJournal = false
    @Option(help: ArgumentHelp("Seconds the server must stay up before the bridge takes up its shared memory.",
                               visibility: .hidden))
    var sharedMemoryAfter: Double?
    @Option(help: ArgumentHelp("Write the introspection XML of the interfaces into this folder and exit.", visibility: .hidden))
    var writeInterfaces: String?

    func validate() throws {
        if let seconds = sharedMemoryAfter, !(0...86_400).contains(seconds) {
            throw ValidationError("--shared-memory-after takes seconds from 0 to 86400")
        }
    }

    func run() throws {
        if let folder = writeInterfaces {
            for (name, xml) in [("Bridge1", Introspection.manager), ("Session1", Introspection.session)] {
                try Introspection.document(xml).write(toFile: "\(folder)/io.github.audiosession.\(name).xml",
                                                      atomically: true, encoding: .utf8)
            }
            return
        }
        var options = DaemonOptions()
        options.bus = bus == .system ? .system : .session
        options.server = server
        options.logFormat = log == .json ? .json : .text
        options.logFile = logFile
        options.headless = headless
        options.policyFolders = policies
        options.journald = journald
        if let seconds = sharedMemoryAfter { options.sharedMemoryDelay = .seconds(seconds) }
        let daemon: Daemon
        do {
            if restoreJournal {
                try Daemon.restoreJournal(options: options)
                return
            }
            daemon = try Daemon(options: options)
        } catch {
            writeToStandardError("audiosessiond: \(error)\n")
            throw ExitCode(1)
        }
        // Everything was undone and flushed before run() returns; end without tearing the loop down.
        Glibc.exit(daemon.run())
    }
}


AudioSessionDaemonCommand.runWithExitStatuses()
