// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation

/// `audiosession-indicator`: the bridge's state as a status item in the desktop's panel.
struct IndicatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession-indicator",
        abstract: "Show what audiosessiond silences, the silent switch and Treat as, in the desktop's panel.")

    @Option(help: "The folder Treat as writes its policy files to (default: $XDG_CONFIG_HOME/audiosession/policies).")
    var policies: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let config = environment["XDG_CONFIG_HOME"] ?? (environment["HOME"] ?? "/") + "/.config"
        let connection: BusConnection
        do { connection = try BusConnection(.session) } catch {
            writeToStandardError("audiosession-indicator: no session bus (\(error)); start it in a desktop session\n")
            throw ExitCode(1)
        }
        let indicator = Indicator(connection: connection, policyFolder: policies ?? config + "/audiosession/policies")
        try indicator.start()
        indicator.run()
    }
}

IndicatorCommand.runWithExitStatuses()
