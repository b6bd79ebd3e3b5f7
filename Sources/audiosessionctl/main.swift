// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

/// `audiosessionctl`: inspects and drives the audio-session bridge.
struct AudioSessionControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessionctl",
        abstract: "Inspect and drive the audio-session bridge.",
        version: BridgeCore.version,
        subcommands: [Status.self, Top.self, Monitor.self, TimelineCommand.self, Silent.self, Policy.self, Exec.self, Permission.self])
}

/// Text for people or JSON for machines.
enum OutputFormat: String, ExpressibleByArgument { case text, json }

AudioSessionControl.runWithExitStatuses()
