// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

extension AudioSessionControl.Policy {
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
