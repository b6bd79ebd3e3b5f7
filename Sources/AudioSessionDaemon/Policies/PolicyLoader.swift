// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import FoundationEssentials
import Glibc

/// Finds and reads the policy files along the search path: the shipped folders (or `--policies`),
/// then `/etc/audiosession/policies`, then each of `$XDG_CONFIG_DIRS` (default `/etc/xdg`), then
/// `$XDG_CONFIG_HOME/audiosession/policies`; a file of the same name replaces an earlier one, new
/// names add.
public struct PolicyLoader: Sendable {
    /// The folders, lowest precedence first.
    public var folders: [String]

    /// The search path with `base` folders (from `--policies`) or, when there are none, the installed ones.
    public init(base: [String]) {
        folders = (base.isEmpty ? Self.installedFolders : base) + ["/etc/audiosession/policies"]
            + UserDirectories.configDirectories.reversed().map { $0 + "/audiosession/policies" }
            + [UserDirectories.configHome + "/audiosession/policies"]
    }

    /// Where `make install` puts the shipped files: beside the executable (`../share`) when it is
    /// there, else each of `$XDG_DATA_DIRS` that has them (default `/usr/local/share:/usr/share`), the
    /// first listed winning.
    static var installedFolders: [String] {
        let executable = URL(fileURLWithPath: runningExecutable).resolvingSymlinksInPath()
        let relative = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/audiosession/policies").path
        if FileManager.default.fileExists(atPath: relative) { return [relative] }
        return UserDirectories.dataDirectories.reversed().map { $0 + "/audiosession/policies" }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The running program's file, from `/proc/self/exe` (argv[0] is only a name when the program was
    /// found along PATH).
    static var runningExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every `*.toml` file along the path, after replacements: (path, name, text).
    public func files() -> [(file: String, name: String, text: String)] {
        var byName: [String: (file: String, name: String, text: String)] = [:]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasSuffix(".toml") {
                let path = folder + "/" + name
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                byName[name] = (path, String(name.dropLast(5)), text)
            }
        }
        return byName.keys.sorted().map { byName[$0]! }
    }

    /// Reads the files once: the set (nil if any file is broken, or if there are none), each good
    /// file with the policy it holds, and the errors.
    public func load() -> (set: PolicySet?, policyByFile: [(file: String, policy: String)], errors: [PolicyFileError]) {
        let found = files()
        guard !found.isEmpty else { return (nil, [], []) }
        let (documents, readErrors) = PolicyLibrary.parse(found)
        let (set, errors) = PolicyLibrary.assemble(documents, readErrors)
        return (set, documents.map { ($0.file, $0.policy.name) }, errors)
    }
}
