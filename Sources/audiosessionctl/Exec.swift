// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import AudioSessionModel
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

extension AudioSessionControl {
    /// `audiosessionctl exec`: runs an unmodified program inside a session.
    struct Exec: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a program inside an audio session; its streams join it by token.",
            discussion: """
                Creates a session owned by this command, sets its category, mode and options (or starts \
                from --policy), activates it, and runs COMMAND with audiosession.token added to PULSE_PROP \
                (PulseAudio clients) and PIPEWIRE_PROPS (native PipeWire clients). The session ends when \
                COMMAND exits; the exit status is COMMAND's. Put -- before COMMAND when it has options of \
                its own.
                """)

        @Option(help: ArgumentHelp("The session's category.", discussion: "One of: \(SessionCategory.spellings).",
                                   valueName: "category"),
                completion: .list(SessionCategory.allCases.map(\.rawValue))) var category: String?
        @Option(help: ArgumentHelp("The session's mode.", discussion: "One of: \(SessionMode.spellings)."),
                completion: .list(SessionMode.allCases.map(\.rawValue))) var mode = "default"
        @Option(name: .customLong("option"),
                help: ArgumentHelp("A category option (may be repeated).", discussion: "Any of: \(CategoryOptions.spellings).",
                                   valueName: "option"),
                completion: .list(CategoryOptions.named.map(\.name))) var options: [String] = []
        @Option(help: "Start from this policy's category, mode and options.", completion: CompletionNames.policies)
        var policy: String?
        @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.") var command: [String]

        func validate() throws {
            // The command is taken as written, so `exec --help` arrives here as a command.
            if command == ["--help"] || command == ["-h"] { throw CleanExit.helpRequest(self) }
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
            Self.addToken(token, to: &environment)
            let status = try ChildProcess.run(words, environment: environment)
            _ = try? bridge.call(path, BusContract.sessionInterface, "Release", [])
            throw ExitCode(status)
        }

        /// The token for the child's streams: in `PULSE_PROP` for PulseAudio clients, and in
        /// `PIPEWIRE_PROPS` (a SPA JSON object, kept with what it held) for native PipeWire clients.
        static func addToken(_ token: String, to environment: inout [String: String]) {
            let property = "audiosession.token=\(token)"
            environment["PULSE_PROP"] = environment["PULSE_PROP"].map { "\($0) \(property)" } ?? property
            var inner = (environment["PIPEWIRE_PROPS"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if inner.hasPrefix("{") && inner.hasSuffix("}") { inner = String(inner.dropFirst().dropLast()) }
            environment["PIPEWIRE_PROPS"] = "{ \(inner) audiosession.token = \"\(token)\" }"
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
