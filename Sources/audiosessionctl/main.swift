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
        subcommands: [Status.self, Monitor.self, Silent.self, Policy.self, Exec.self, Permission.self])
}

/// Text for people or JSON for machines.
enum OutputFormat: String, ExpressibleByArgument { case text, json }

extension AudioSessionControl {
    /// `audiosessionctl status`: sessions, streams and devices, from the bridge's `Snapshot()`.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the bridge's sessions, streams and devices.")
        @Option(help: "text (aligned tables) or json.") var format: OutputFormat = .text

        func run() throws {
            let bridge = try BridgeCalls()
            let json = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "Snapshot", [])
                .first?.stringValue ?? "{}"
            guard format == .text else { return print(json) }
            let snapshot = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
            print("server: \(snapshot["server"] as? String ?? "?") \(snapshot["serverVersion"] as? String ?? "")"
                + ((snapshot["connected"] as? Bool ?? false) ? "" : " (not connected)")
                + "   silent mode: \((snapshot["silentMode"] as? Bool ?? false) ? "on" : "off")"
                + "   screen: \((snapshot["screenLocked"] as? Bool ?? false) ? "locked" : "unlocked")")
            func list(_ key: String) -> [[String: Any]] { snapshot[key] as? [[String: Any]] ?? [] }
            func text(_ value: Any?) -> String {
                switch value {
                case let value as String: value
                case let value as Bool: value ? "yes" : "no"
                case let value as [String]: value.joined(separator: ",")
                case let value as [Any]: value.map { "\($0)" }.joined(separator: ",")
                case nil, is NSNull: "-"
                case let value?: "\(value)"
                }
            }
            func outputs(_ session: [String: Any]) -> String {
                let route = session["route"] as? [String: Any]
                return ((route?["outputs"] as? [[String: Any]]) ?? []).map { "\($0["portType"] ?? "?")" }.joined(separator: ",")
            }
            print()
            Table.print(["SESSION", "APP", "KIND", "POLICY", "CATEGORY", "MODE", "OPTIONS", "ACTIVE", "INTERRUPTED", "OUTPUT",
                         "PLAYER", "NOW PLAYING"],
                        list("sessions").map { s in
                            let player = s["player"] as? String
                            return [text(s["session"]).split(separator: "/").suffix(2).joined(separator: "/"), text(s["app"]),
                                    text(s["kind"]), text(s["policy"]), text(s["category"]), text(s["mode"]), text(s["options"]),
                                    text(s["active"]), text(s["interrupted"]), outputs(s),
                                    player.map { String($0.dropFirst("org.mpris.MediaPlayer2.".count)) } ?? "-",
                                    player.map { NowPlayingLookup.describe(player: $0, on: bridge.connection) } ?? "-"]
                        })
            print()
            Table.print(["STREAM", "APP", "ROLE", "SESSION", "DEVICE", "CORKED", "MUTE", "BRIDGE EFFECT"],
                        list("streams").map { s in
                            [text(s["stream"]), text(s["app"]), text(s["role"]),
                             text(s["session"]).split(separator: "/").suffix(2).joined(separator: "/"), text(s["device"]),
                             text(s["corked"]), text(s["mute"]), text(s["effect"])]
                        })
            print()
            Table.print(["DEVICE", "NAME", "PORT TYPE", "UID", "DEFAULT"], list("devices").map { d in
                let port = d["port"] as? [String: Any]
                return [text(d["device"]), text(d["name"]), text(port?["portType"]), text(port?["uid"]), text(d["default"])]
            })
        }
    }

    /// `audiosessionctl monitor`: the event log, live, from the manager's `Event` signal.
    struct Monitor: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Follow the bridge's event log live.")
        @Option(help: "text or json (JSON Lines, as audiosessiond --log json writes).") var format: OutputFormat = .text

        func run() throws {
            let bridge = try BridgeCalls()
            try bridge.connection.addMatch(
                "type='signal',sender='\(BusContract.busName)',interface='\(BusContract.managerInterface)',member='Event'")
            let format = self.format
            bridge.connection.onMessage = { message in
                guard message.member == "Event", let json = message.arguments.first?.stringValue else { return false }
                FileHandle.standardOutput.write(Data(((format == .json ? json : Self.text(json)) + "\n").utf8))
                return true
            }
            while bridge.connection.isConnected { bridge.connection.dispatchPending(waitingUpTo: .seconds(60)) }
        }

        /// One record as text: timestamp, event, then key=value pairs.
        static func text(_ json: String) -> String {
            guard let record = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return json }
            let rest = record.filter { $0.key != "ts" && $0.key != "event" }.sorted { $0.key < $1.key }.map { key, value in
                let rendered = (value as? String)
                    ?? (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
                        .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
                return "\(key)=\(rendered)"
            }
            return ([record["ts"] as? String ?? "", record["event"] as? String ?? ""] + rest).joined(separator: " ")
        }
    }

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

/// Aligned columns for people.
enum Table {
    static func print(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        for row in all {
            Swift.print(row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        if rows.isEmpty { Swift.print("(none)") }
    }
}

extension AudioSessionControl {
    /// `audiosessionctl exec`: runs an unmodified program inside a session.
    struct Exec: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a program inside an audio session; its streams join it by token.",
            discussion: """
                Creates a session owned by this command, sets its category, mode and options (or starts                 from --policy), activates it, and runs COMMAND with audiosession.token added to PULSE_PROP.                 The session ends when COMMAND exits; the exit status is COMMAND's.
                """)

        @Option(help: "The session's category.") var category: String?
        @Option(help: "The session's mode.") var mode = "default"
        @Option(name: .customLong("option"), help: "A category option (may be repeated).") var options: [String] = []
        @Option(help: "Start from this policy's category, mode and options.") var policy: String?
        @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.") var command: [String]

        func validate() throws {
            let words = command.first == "--" ? Array(command.dropFirst()) : command
            guard !words.isEmpty else { throw ValidationError("give the command to run after --") }
            guard category != nil || policy != nil else { throw ValidationError("give --category or --policy") }
        }

        func run() throws {
            let words = command.first == "--" ? Array(command.dropFirst()) : command
            let bridge = try BridgeCalls()
            var hints: [(String, BusValue)] = []
            if let policy { hints.append(("policy", .string(policy))) }
            let created = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "CreateSession",
                                          [.string(URL(fileURLWithPath: words[0]).lastPathComponent), .vardict(hints)])
            let path = created[0].stringValue ?? "", token = created[1].stringValue ?? ""
            if let category {
                _ = try bridge.call(path, BusContract.sessionInterface, "SetCategory",
                                    [.string(category), .string(mode), .strings(options)])
            }
            _ = try bridge.call(path, BusContract.sessionInterface, "SetActive", [.bool(true), .strings([])])
            var environment = ProcessInfo.processInfo.environment
            let property = "audiosession.token=\(token)"
            environment["PULSE_PROP"] = environment["PULSE_PROP"].map { "\($0) \(property)" } ?? property
            let status = try ChildProcess.run(words, environment: environment)
            _ = try? bridge.call(path, BusContract.sessionInterface, "Release", [])
            throw ExitCode(status)
        }
    }
}

extension AudioSessionControl {
    /// `audiosessionctl policy …`: policy files.
    struct Policy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check, list and explain policy files.", subcommands: [Check.self, List.self, Explain.self])
    }
}

/// Options shared by the verbs that read the policy search path.
struct PolicyPathOptions: ParsableArguments {
    @Option(name: .customLong("policies"), help: "A folder of policy files in place of the installed one (may be repeated).")
    var folders: [String] = []

    /// The policies in force along the search path, or exit 1 naming every broken file.
    func load() throws -> PolicySet {
        let loader = PolicyLoader(base: folders)
        let (set, _, errors) = loader.load()
        for error in errors { writeToStandardError("\(error)\n") }
        guard errors.isEmpty else { throw ExitCode(1) }
        guard let set else {
            writeToStandardError("audiosessionctl: no policy files in \(loader.folders.joined(separator: ", "))\n")
            throw ExitCode(1)
        }
        return set
    }
}

extension AudioSessionControl.Policy {
    /// `audiosessionctl policy list`: the policies in force, in precedence order.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the policies along the search path, first match first.")
        @OptionGroup var path: PolicyPathOptions

        func run() throws {
            let set = try path.load()
            let rows = set.policies.map { policy in
                [policy.name, policy.configuration.description, policy.activation.rawValue,
                 set.fallbackByRole.filter { $0.value == policy.name }.keys.sorted().joined(separator: ",")]
            }
            Table.print(["POLICY", "SESSION", "ACTIVATION", "FALLBACK FOR ROLES"], rows)
        }
    }

    /// `audiosessionctl policy explain APP`: which policy an app gets, and why.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell which policy an app gets and why (APP is a desktop id, Flatpak id, binary or application name).")
        @OptionGroup var path: PolicyPathOptions
        @Argument(help: "The app.") var app: String
        @Option(help: "The stream's media.role, if it sets one.") var role: String?

        func run() throws {
            let set = try path.load()
            for policy in set.policies {
                let rules: [(String, Set<String>)] = [
                    ("desktop id", policy.match.desktopIDs), ("Flatpak id", policy.match.flatpakIDs),
                    ("binary", policy.match.binaries), ("application name", policy.match.applicationNames),
                ]
                if let rule = rules.first(where: { $0.1.contains(app) }) {
                    print("\(app): \(policy.name) (its \(rule.0) '\(app)' is listed there; \(policy.configuration))")
                    return
                }
                if let role, policy.match.roles.contains(role) {
                    print("\(app): \(policy.name) (media.role '\(role)' is listed there; \(policy.configuration))")
                    return
                }
            }
            if let role, let name = set.fallbackByRole[role], let policy = set.policy(named: name) {
                print("\(app): \(name) (no rule names it; it is the fallback for media.role '\(role)'; \(policy.configuration))")
            } else {
                print("\(app): no policy (no rule names it\(role.map { " and no policy is the fallback for media.role '\($0)'" } ?? ""); its streams mix with everything and are never touched)")
            }
        }
    }

    /// `audiosessionctl policy check FILE...`: checks each file and the set they make together.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check policy files; print each error as file:line:column: message.")

        @Argument(help: "Policy files (.toml).") var files: [String]

        func run() throws {
            var loaded: [(file: String, name: String, text: String)] = []
            for file in files {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    writeToStandardError("audiosessionctl: cannot read \(file); check the path\n")
                    throw ExitCode(1)
                }
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                loaded.append((file, name, text))
            }
            let (set, errors) = PolicyLibrary.load(loaded)
            for error in errors { writeToStandardError("\(error)\n") }
            guard let set else { throw ExitCode(1) }
            for policy in set.policies {
                print("\(policy.name): \(policy.configuration), activation \(policy.activation.rawValue)")
            }
            print("\(files.count) file(s), \(set.policies.count) policies: ok")
        }
    }
}

/// Blocking calls to the bridge on the session bus; a failure is one line naming the problem.
struct BridgeCalls {
    let connection: BusConnection

    init() throws {
        do {
            connection = try BusConnection(.session)
        } catch {
            writeToStandardError(
                "audiosessionctl: cannot reach the session bus (\(error.message)); is DBUS_SESSION_BUS_ADDRESS set?\n")
            throw ExitCode(1)
        }
    }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        do {
            return try connection.call(.methodCall(destination: BusContract.busName, path: path, interface: interface,
                                                   member: member, arguments)).arguments
        } catch {
            writeToStandardError("audiosessionctl: \(member) failed: \(error); is audiosessiond running?\n")
            throw ExitCode(1)
        }
    }
}

/// Runs a child with an environment and waits for it; returns its exit status.
enum ChildProcess {
    static func run(_ words: [String], environment: [String: String]) throws -> Int32 {
        var pid: Int32 = 0
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = posix_spawnp(&pid, words[0], nil, nil, argv, envp)
        guard result == 0 else {
            writeToStandardError("audiosessionctl: cannot run \(words[0]): \(String(cString: strerror(result)))\n")
            throw ExitCode(1)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

AudioSessionControl.runWithExitStatuses()
