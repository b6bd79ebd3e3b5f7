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
                                    s["activation"] as? String == "waiting" ? "WAITING" : text(s["active"]),
                                    text(s["interrupted"]), outputs(s),
                                    player.map { String($0.dropFirst("org.mpris.MediaPlayer2.".count)) } ?? "-",
                                    player.map { NowPlayingLookup.describe(player: $0, on: bridge.connection) } ?? "-"]
                        })
            // Apps whose policy session acts as a call (a web meeting in a browser), and why.
            for s in list("sessions") {
                if let why = s["call"] as? String { print("\(text(s["app"])) is in a call: \(why)") }
            }
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

