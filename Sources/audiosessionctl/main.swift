import AudioPolicy
import ArgumentParser
import Foundation

/// `audiosessionctl`: inspects and drives the audio-session bridge.
struct AudioSessionControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessionctl",
        abstract: "Inspect and drive the audio-session bridge.",
        subcommands: [Policy.self])
}

extension AudioSessionControl {
    /// `audiosessionctl policy …`: policy files.
    struct Policy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check policy files.", subcommands: [Check.self])
    }
}

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
                    FileHandle.standardError.write(Data("audiosessionctl: cannot read \(file); check the path\n".utf8))
                    throw ExitCode(1)
                }
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                loaded.append((file, name, text))
            }
            let (set, errors) = PolicyLibrary.load(loaded)
            for error in errors { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
            guard let set else { throw ExitCode(1) }
            for policy in set.policies {
                print("\(policy.name): \(policy.configuration), activation \(policy.activation.rawValue)")
            }
            print("\(files.count) file(s), \(set.policies.count) policies: ok")
        }
    }
}

/// Runs the command; bad usage exits with status 2 (INTERFACES.md), runtime failures with 1.
func runCommand() {
    do {
        var command = try AudioSessionControl.parseAsRoot()
        try command.run()
    } catch {
        let code = AudioSessionControl.exitCode(for: error)
        if code == .validationFailure {
            FileHandle.standardError.write(Data((AudioSessionControl.fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
        AudioSessionControl.exit(withError: error)
    }
}

runCommand()
