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
    /// `audiosessionctl monitor`: the event log, live, from the manager's `Event` signal.
    struct Monitor: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Follow the bridge's event log live.")
        @Option(help: "text or json (JSON Lines, as audiosessiond --log json writes).") var format: OutputFormat = .text
        @Option(help: "Start with the records the bridge kept since then: a duration back from now (10m) or a time.")
        var since: PointInTime?

        func run() throws {
            let bridge = try BridgeCalls()
            try bridge.connection.addMatch(
                "type='signal',sender='\(BusContract.busName)',interface='\(BusContract.managerInterface)',member='Event'")
            // The bridge sends the records to the connections that asked for them.
            _ = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "WatchEvents", [])
            let format = self.format
            func show(_ json: String) { FileHandle.standardOutput.write(Data(((format == .json ? json : Self.text(json)) + "\n").utf8)) }
            // The history is asked for after watching began, so nothing falls between; records that
            // came in both ways are shown once.
            var shown: Set<String> = []
            if let since {
                let milliseconds = UInt64(max(since.date.timeIntervalSince1970 * 1000, 1))
                let reply = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "EventHistory",
                                            [.uint64(milliseconds), .uint64(0)])
                for json in (reply.first?.arrayItems ?? []).compactMap(\.stringValue) {
                    shown.insert(json)
                    show(json)
                }
            }
            bridge.connection.onMessage = { message in
                guard message.member == "Event", let json = message.arguments.first?.stringValue else { return false }
                if shown.remove(json) == nil { show(json) }
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
}
