// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import FoundationEssentials
import Glibc

/// One installed desktop entry, as far as the bridge reads it.
struct DesktopEntry: Hashable, Sendable {
    /// The desktop id: the file's path under `applications/` without `.desktop`, `/` turned into `-`.
    var id: String
    var categories: [String]
    /// The file name of the program its `Exec` runs (after `env` and its assignments), if any.
    var program: String?

    /// Reads the `[Desktop Entry]` group of a desktop file; nil for a hidden (deleted) entry or one
    /// that is no application.
    init?(id: String, text: String) {
        var group = ""
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("[") {
                group = String(line)
                continue
            }
            guard group == "[Desktop Entry]", !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].split(separator: " ").first ?? ""
            let value = line[line.index(after: equals)...].trimmingPrefix(while: { $0 == " " })
            values[String(key)] = String(value)
        }
        guard values["Type"].map({ $0 == "Application" }) ?? true, values["Hidden"] != "true" else { return nil }
        self.id = id
        categories = (values["Categories"] ?? "").split(separator: ";").map { String($0).trimmingPrefix(while: { $0 == " " }) }
            .map(String.init).filter { !$0.isEmpty }
        program = values["Exec"].flatMap(Self.program(ofExec:))
    }

    /// The program an `Exec` line runs: its first word that is not `env` or a `NAME=value`, as a file name.
    static func program(ofExec exec: String) -> String? {
        for word in exec.split(separator: " ") {
            let unquoted = word.split(separator: "\"").first ?? ""
            if unquoted == "env" || unquoted.hasPrefix("-") || unquoted.contains("=") { continue }
            return unquoted.split(separator: "/").last.map(String.init)
        }
        return nil
    }
}

/// The installed desktop entries, found along `$XDG_DATA_HOME` and `$XDG_DATA_DIRS` as desktops find
/// them (an earlier folder hides an entry of the same id in a later one). Read again when a folder
/// changes, so an app installed while the bridge runs is known at its first stream.
struct DesktopEntryIndex {
    /// The `applications` folders, most important first.
    let folders: [String]
    private var byID: [String: DesktopEntry] = [:]
    private var byProgram: [String: DesktopEntry] = [:]
    private var seen: [String: timespec] = [:]
    /// Whether a ``FolderWatch`` reports the folders' changes (``changeReported()``): then a lookup
    /// reads them again only after a report, and makes no system call; else it looks at their times.
    var isWatched = false
    private var unreadChange = true
    /// How many times the folders were read: what was found in an earlier reading is stale.
    private(set) var generation = 0

    init(folders: [String]) {
        self.folders = folders
    }

    /// The folders of an environment (the bridge's own, or a test's).
    static func folders(environment: [String: String]) -> [String] {
        let home = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { "\($0)/.local/share" }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return ([home].compactMap { $0 } + dirs.split(separator: ":").map(String.init)).map { "\($0)/applications" }
    }

    /// The entry for an app: by the ids it is known by, most trusted first, else by the program its
    /// `Exec` runs: the script for an interpreter (never the interpreter's own entry, such as
    /// `python3.11.desktop`), else the binary.
    mutating func entry(for app: AppIdentity) -> DesktopEntryFacts? {
        refreshIfChanged()
        return entryAsRead(for: app)
    }

    /// The entry for an app in the folders as last read (``refreshIfChanged()`` not called).
    func entryAsRead(for app: AppIdentity) -> DesktopEntryFacts? {
        let ids: [(IdentitySource, String?)] = [(.flatpak, app.flatpakID), (.systemdUnit, app.unitDesktopID),
                                                 (.applicationID, app.desktopID)]
        for case let (source, id?) in ids {
            let bare = id.hasSuffix(".desktop") ? String(id.dropLast(".desktop".count)) : id
            if let entry = byID[bare] { return DesktopEntryFacts(id: entry.id, categories: entry.categories, foundBy: source) }
        }
        let (source, program) = app.script.map { (IdentitySource.script, $0) } ?? (.binary, app.binary ?? "")
        guard let entry = byProgram[program] ?? byProgram[program.lowercased()] else { return nil }
        return DesktopEntryFacts(id: entry.id, categories: entry.categories, foundBy: source)
    }

    /// A watch saw a folder change.
    mutating func changeReported() { unreadChange = true }

    /// Reads the folders again when one of them changed since the last reading.
    mutating func refreshIfChanged() {
        if isWatched {
            guard unreadChange else { return }
            unreadChange = false
        } else {
            guard foldersChanged() else { return }
        }
        generation += 1
        byID = [:]
        byProgram = [:]
        for folder in folders.reversed() {
            for entry in Self.read(folder: folder) {
                byID[entry.id] = entry
                if let program = entry.program {
                    byProgram[program] = entry
                    byProgram[program.lowercased()] = entry
                }
            }
        }
    }

    /// Whether a folder's time changed, or a folder came or went, since the last look.
    private mutating func foldersChanged() -> Bool {
        var now: [String: timespec] = [:]
        for folder in folders {
            var info = stat()
            if stat(folder, &info) == 0 { now[folder] = info.st_mtim }
        }
        let changed = now.count != seen.count || now.contains { folder, time in
            seen[folder].map { $0.tv_sec != time.tv_sec || $0.tv_nsec != time.tv_nsec } ?? true
        }
        seen = now
        return changed
    }

    /// Every entry of one `applications` folder, its subfolders included.
    static func read(folder: String) -> [DesktopEntry] {
        guard let paths = try? FileManager.default.subpathsOfDirectory(atPath: folder) else { return [] }
        var entries: [DesktopEntry] = []
        for path in paths {
            guard path.hasSuffix(".desktop"), let data = FileManager.default.contents(atPath: "\(folder)/\(path)") else { continue }
            let id = path.dropLast(".desktop".count).split(separator: "/").joined(separator: "-")
            if let entry = DesktopEntry(id: id, text: String(decoding: data, as: UTF8.self)) { entries.append(entry) }
        }
        return entries.sorted { $0.id < $1.id }
    }
}
