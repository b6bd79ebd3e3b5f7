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
