// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import EventTimeline
import Foundation

/// Where past event-log records come from: the bridge's own memory (`EventHistory`), a log file it
/// wrote with `--log json`, or the systemd journal it wrote as a service.
struct EventSourceOptions: ParsableArguments {
    @Option(name: .customLong("log-file"), help: "Read this JSON Lines event log (audiosessiond --log json --log-file) instead of asking the bridge.")
    var logFile: String?
    @Flag(help: "Read the systemd journal of the user's audiosessiond service instead of asking the bridge.")
    var journal = false
    @Option(name: .customLong("journal-file"), help: "With --journal: read this journal file (journalctl --file).")
    var journalFile: String?

    /// Every record the source holds, oldest first, each a JSON object of the event log.
    func records() throws -> [[String: Any]] {
        if let logFile {
            guard let data = FileManager.default.contents(atPath: logFile) else {
                writeToStandardError("audiosessionctl: cannot read \(logFile)\n")
                throw ExitCode(1)
            }
            return try Self.jsonLines(String(decoding: data, as: UTF8.self), from: logFile)
        }
        if journal { return try JournalRecords.read(file: journalFile) }
        let bridge = try BridgeCalls()
        let reply = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "EventHistory", [.uint64(0), .uint64(0)])
        return (reply.first?.arrayItems ?? []).compactMap { $0.stringValue.flatMap(Self.object) }
    }

    /// The records of a JSON Lines log; a log written as text is refused with the option that writes JSON.
    static func jsonLines(_ text: String, from file: String) throws -> [[String: Any]] {
        var records: [[String: Any]] = []
        for (number, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
            guard let record = object(String(line)) else {
                writeToStandardError("audiosessionctl: \(file):\(number + 1) is not a JSON record; the bridge writes JSON Lines with --log json\n")
                throw ExitCode(1)
            }
            records.append(record)
        }
        return records
    }

    static func object(_ json: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
    }
}

/// Reads the event-log records back from the systemd journal, with `journalctl`.
enum JournalRecords {
    static func read(file: String?) throws -> [[String: Any]] {
        var arguments = ["-o", "json", "--no-pager", "SYSLOG_IDENTIFIER=audiosessiond"]
        arguments.insert(contentsOf: file.map { ["--file", $0] } ?? ["--user"], at: 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/journalctl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            writeToStandardError("audiosessionctl: cannot run journalctl: \(error)\n")
            throw ExitCode(1)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            EventSourceOptions.object(String(line)).flatMap(JournalEntryRecord.record)
        }
    }
}

/// A point in time given on the command line: a duration back from now (`90s`, `10m`, `2h`), or a time
/// of the log (`2026-11-25T13:54:38Z`).
struct PointInTime: ExpressibleByArgument {
    var date: Date

    init?(argument: String) {
        if let date = Timeline.date(argument) {
            self.date = date
            return
        }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = argument.last.flatMap({ units[$0] }), let amount = Double(argument.dropLast()), amount >= 0 else { return nil }
        date = Date().addingTimeInterval(-amount * unit)
    }
}
