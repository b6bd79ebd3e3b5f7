// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

extension AudioSessionControl {
    /// `audiosessionctl silent on|off`: the silent switch.
    struct Silent: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the silent switch on or off.")
        enum State: String, ExpressibleByArgument { case on, off }
        @Argument(help: "on or off.") var state: State

        func run() throws {
            let bridge = try BridgeCalls()
            _ = try bridge.call(BusContract.managerPath, "org.freedesktop.DBus.Properties", "Set",
                                [.string(BusContract.managerInterface), .string("SilentMode"), .variant(.bool(state == .on))])
            print("silent mode \(state.rawValue)")
        }
    }
}
