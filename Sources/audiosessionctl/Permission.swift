// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit

extension AudioSessionControl {
    /// `audiosessionctl permission list | grant APP | deny APP | reset APP`: the record permission of
    /// each app id, as the user decides it.
    struct Permission: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List or change which apps may record.",
            subcommands: [List.self, Grant.self, Deny.self, Reset.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The decided record permissions, one app a line.")
            func run() throws {
                let bridge = try BridgeCalls()
                let reply = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "RecordPermissions", [])
                guard case .dictionary(_, _, let entries)? = reply.first, !entries.isEmpty else {
                    return print("no app has a decided record permission")
                }
                Table.print(["APP", "PERMISSION"], entries.map { [$0.key.stringValue ?? "?", $0.value.stringValue ?? "?"] })
            }
        }

        struct Grant: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Let an app record.")
            @Argument(help: "The app id (as `permission list` or `status` shows it).", completion: CompletionNames.permissionApps)
            var app: String
            func run() throws { try Permission.set(app, "granted", done: "\(app) may record") }
        }

        struct Deny: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make an app record silence.")
            @Argument(help: "The app id (as `permission list` or `status` shows it).", completion: CompletionNames.permissionApps)
            var app: String
            func run() throws { try Permission.set(app, "denied", done: "\(app) records silence") }
        }

        struct Reset: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Forget the decision: the app is asked again.")
            @Argument(help: "The app id (as `permission list` or `status` shows it).", completion: CompletionNames.permissionApps)
            var app: String
            func run() throws { try Permission.set(app, "undetermined", done: "\(app) will be asked again") }
        }

        /// Sets a permission through the bridge; the bridge's own message on failure (an unknown app).
        static func set(_ app: String, _ permission: String, done: String) throws {
            let bridge = try BridgeCalls()
            do {
                _ = try bridge.connection.call(.methodCall(
                    destination: BusContract.busName, path: BusContract.managerPath, interface: BusContract.managerInterface,
                    member: "SetRecordPermission", [.string(app), .string(permission)]))
            } catch {
                writeToStandardError("audiosessionctl: permission: \(error.message)\n")
                throw ExitCode(1)
            }
            print(done)
        }
    }
}
