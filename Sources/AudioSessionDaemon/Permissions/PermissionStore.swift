// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import FoundationEssentials

/// The record permissions the user decided, in `$XDG_STATE_HOME/audiosession/permissions.json` as
/// `{"app id": "granted" | "denied"}`. Each change writes the whole file to a new one renamed over the
/// old, so a reader never sees half a file. A file that cannot be read as that is reported (``problem``)
/// and taken as empty; it is replaced at the next decision.
public final class PermissionStore {
    public let path: String
    private let directory: String
    public private(set) var decisions: [String: RecordPermission] = [:]
    /// What was wrong with the file when it was read, if anything.
    public private(set) var problem: String?

    /// The store in `directory` (the bridge's state folder), read now.
    public init(directory: String) {
        self.directory = directory
        path = directory + "/permissions.json"
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let raw = try? JSONDecoder().decode([String: String].self, from: data) else {
            problem = "\(path) is not a JSON object of app ids and permissions; it is taken as empty"
            return
        }
        for (app, text) in raw {
            guard let permission = RecordPermission(rawValue: text), permission != .undetermined else {
                problem = "\(path): '\(text)' for \(app) is not granted or denied; that entry is left out"
                continue
            }
            decisions[app] = permission
        }
    }

    /// Keeps a decision (`undetermined` forgets it) and writes the file.
    public func set(_ app: String, _ permission: RecordPermission) throws {
        decisions[app] = permission == .undetermined ? nil : permission
        let object = JSONValue.object(decisions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.rawValue)) })
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data((object.serialized + "\n").utf8).write(to: URL(filePath: path), options: .atomic)
        problem = nil
    }
}
