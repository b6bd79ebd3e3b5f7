// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// One policy file, read and checked: the policy, its precedence, and the roles it is the fallback for.
public struct PolicyDocument: Hashable, Sendable {
    public var file: String
    public var policy: SessionPolicy
    /// Higher is tried first when several policies match an app.
    public var precedence: Int
    /// `media.role` values whose unmatched streams get this policy.
    public var fallbackForRoles: [String]
    public var description: String
    /// The policy whose settings this file takes (`like`), and where the name is written; only the
    /// file's `[match]` is its own. Resolved when the set is put together.
    public var like: PolicyReference?

    /// The schema version this bridge reads.
    public static let schemaVersion = 1

    /// The longest duck fade a file may ask for (`[ducking] fade-ms`): the longest fade of any
    /// (`[fades] interruption-ms` takes at most 2000). A setting of docs/DESIGN.md §3's table: the
    /// server's-memory record keeps every step of such a fade down and back up.
    public static let longestDuckFade = Duration.seconds(5)

    /// ``longestDuckFade`` in the file's unit.
    private static let longestDuckFadeMilliseconds = Int(longestDuckFade / .milliseconds(1))

    /// Every key the schema knows: table, key, what it takes, its default and bounds (for the
    /// documentation and for "unknown key" errors).
    public static let keys: [(table: String, key: String, takes: String, defaultValue: String)] = [
        ("", "schema", "integer, must be 1", "required"),
        ("", "name", "string", "the file name without .toml"),
        ("", "description", "string", "\"\""),
        ("", "like", "string: another policy's name; the file takes every setting from it, and only [match] is its own", "none"),
        ("session", "category", "category", "\"soloAmbient\""),
        ("session", "mode", "mode allowed for the category", "\"default\""),
        ("session", "options", "array of category options allowed for the category", "[]"),
        ("session", "priority", "integer 0…99 (calls rank 100, alerts 50)", "0"),
        ("session", "alert", "boolean: a system alert", "false"),
        ("activation", "when", "\"explicit\" | \"first-stream\" | \"per-stream\"", "\"first-stream\""),
        ("activation", "release-grace-ms", "integer 0…60000", "2000"),
        ("activation", "release-after-silence-ms", "integer 50…60000: a stream counts as stopped after this much silence", "none"),
        ("interruption", "when-interrupted", "\"pause\" | \"duck\" | \"mix\"", "\"pause\""),
        ("interruption", "resume", "\"never\" | \"on-should-resume\" | \"if-was-playing\"", "\"on-should-resume\""),
        ("interruption", "notify-others", "boolean", "true"),
        ("interruption", "when-ducked", "\"duck\" | \"pause\": paused while another app's voice ducks others, resumed after", "\"duck\""),
        ("routes", "when-output-removed", "\"pause\" | \"ignore\"", "\"ignore\""),
        ("routes", "follow", "boolean", "true"),
        ("ducking", "level", "number 0…1", "0.2"),
        ("ducking", "fade-ms", "integer 0…\(longestDuckFadeMilliseconds)", "200"),
        ("fades", "interruption-ms", "integer 0…2000", "30"),
        ("mpris", "use", "boolean", "false"),
        ("calls", "while-recording", "boolean: the app is in a call while it records from a microphone and plays at once", "false"),
        ("calls", "engines", "array of strings: stream or client names of call engines; a stream of the app so named puts it in a call", "[]"),
        ("record", "permission", "\"granted\" | \"ask\" | \"denied\"", "\"granted\""),
        ("record", "ask-timeout-s", "integer 5…600", "60"),
        ("match", "desktop-ids", "array of strings", "[]"),
        ("match", "flatpak-ids", "array of strings", "[]"),
        ("match", "binaries", "array of strings", "[]"),
        ("match", "application-names", "array of strings", "[]"),
        ("match", "roles", "array of strings", "[]"),
        ("match", "categories", "array of desktop entry categories (Telephony, Player, Game, …)", "[]"),
        ("match", "fallback-for-roles", "array of strings", "[]"),
        ("match", "precedence", "integer 0…1000", "100"),
    ]

    /// Reads a policy file's text; `name` is the file name without `.toml`.
    public init(text: String, file: String, name: String) throws(PolicyFileError) {
        let entries = try TOMLReader.parse(text, file: file)
        let reader = Reader(file: file, entries: entries)
        try reader.checkKeys()
        guard let schema = try reader.integer("", "schema", in: 1...1_000) else {
            throw PolicyFileError(file: file, position: SourcePosition(line: 1, column: 1),
                                  message: "schema is required (schema = \(Self.schemaVersion))")
        }
        guard schema == Self.schemaVersion else {
            throw reader.error("", "schema", "schema \(schema) is not supported; this bridge reads schema \(Self.schemaVersion)")
        }
        self.file = file
        description = try reader.string("", "description") ?? ""
        let policyName = try reader.string("", "name") ?? name
        let category = try reader.word("session", "category", SessionCategory.self) ?? .soloAmbient
        let mode = try reader.word("session", "mode", SessionMode.self) ?? .default
        let optionNames = try reader.strings("session", "options") ?? []
        for (index, option) in optionNames.enumerated() {
            do { _ = try CategoryOptions.parse([option]) } catch { throw reader.itemError("session", "options", index, error.message) }
        }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(category: category, mode: mode,
                                                     options: CategoryOptions.parse(optionNames))
        } catch {
            let key = error.code == .incompatibleCategory ? "mode" : "options"
            throw reader.error("session", reader.has("session", key) ? key : "category", error.message)
        }
        var policy = SessionPolicy(name: policyName, configuration: configuration)
        policy.priority = try reader.integer("session", "priority", in: 0...99) ?? 0
        policy.isAlert = try reader.bool("session", "alert") ?? false
        policy.activation = try reader.choice("activation", "when", ["explicit": ActivationMode.explicit,
                                                                     "first-stream": .firstStream, "per-stream": .perStream])
            ?? .firstStream
        policy.releaseGrace = .milliseconds(try reader.integer("activation", "release-grace-ms", in: 0...60_000) ?? 2000)
        policy.releaseAfterSilence = try reader.integer("activation", "release-after-silence-ms", in: 50...60_000).map { .milliseconds($0) }
        policy.whenInterrupted = try reader.choice("interruption", "when-interrupted",
                                                   ["pause": InterruptionResponse.pause, "duck": .duck, "mix": .mix]) ?? .pause
        policy.resume = try reader.choice("interruption", "resume", ["never": ResumePolicy.never,
                                                                     "on-should-resume": .onShouldResume,
                                                                     "if-was-playing": .ifWasPlaying]) ?? .onShouldResume
        policy.notifiesOthersOnDeactivation = try reader.bool("interruption", "notify-others") ?? true
        policy.whenDucked = try reader.choice("interruption", "when-ducked", ["duck": DuckResponse.duck, "pause": .pause]) ?? .duck
        policy.whenOutputRemoved = try reader.choice("routes", "when-output-removed",
                                                     ["pause": OutputRemovedResponse.pause, "ignore": .ignore]) ?? .ignore
        policy.followsRouteChanges = try reader.bool("routes", "follow") ?? true
        policy.duckLevel = try reader.number("ducking", "level", in: 0...1) ?? 0.2
        policy.duckFade = .milliseconds(try reader.integer("ducking", "fade-ms", in: 0...Self.longestDuckFadeMilliseconds) ?? 200)
        policy.interruptionFade = .milliseconds(try reader.integer("fades", "interruption-ms", in: 0...2000) ?? 30)
        policy.usesMPRIS = try reader.bool("mpris", "use") ?? false
        policy.calls = CallDetection(whileRecording: try reader.bool("calls", "while-recording") ?? false,
                                     engines: try reader.strings("calls", "engines") ?? [])
        policy.recordPermission = try reader.choice("record", "permission", ["granted": RecordPermissionDefault.granted,
                                                                             "ask": .ask, "denied": .denied]) ?? .granted
        policy.recordPermissionTimeout = .seconds(try reader.integer("record", "ask-timeout-s", in: 5...600) ?? 60)
        policy.match = PolicyMatch(
            desktopIDs: Set(try reader.strings("match", "desktop-ids") ?? []),
            flatpakIDs: Set(try reader.strings("match", "flatpak-ids") ?? []),
            binaries: Set(try reader.strings("match", "binaries") ?? []),
            applicationNames: Set(try reader.strings("match", "application-names") ?? []),
            roles: Set(try reader.strings("match", "roles") ?? []),
            categories: Set(try reader.strings("match", "categories") ?? []))
        self.policy = policy
        if let like = try reader.string("", "like") {
            self.like = PolicyReference(name: like, position: reader.entry("", "like")!.valuePosition)
            if let other = entries.first(where: { !$0.table.isEmpty && $0.table != "match" }) {
                throw PolicyFileError(file: file, position: other.keyPosition,
                                      message: "a file with like = \"\(like)\" takes every setting from \(like); only [match] may be given here")
            }
        }
        precedence = try reader.integer("match", "precedence", in: 0...1000) ?? 100
        fallbackForRoles = try reader.strings("match", "fallback-for-roles") ?? []
    }

    /// Typed access to the entries, with errors at the value's position.
    struct Reader {
        let file: String
        let entries: [PolicyEntry]

        func entry(_ table: String, _ key: String) -> PolicyEntry? {
            entries.first { $0.table == table && $0.key == key }
        }

        func has(_ table: String, _ key: String) -> Bool { entry(table, key) != nil }

        /// An error at an array item's own position (or the array's, for values that are not arrays).
        func itemError(_ table: String, _ key: String, _ index: Int, _ message: String) -> PolicyFileError {
            let positions = entry(table, key)?.itemPositions ?? []
            guard positions.indices.contains(index) else { return error(table, key, message) }
            return PolicyFileError(file: file, position: positions[index], message: message)
        }

        func error(_ table: String, _ key: String, _ message: String) -> PolicyFileError {
            PolicyFileError(file: file, position: entry(table, key)?.valuePosition ?? SourcePosition(line: 1, column: 1),
                            message: message)
        }

        func name(_ table: String, _ key: String) -> String { table.isEmpty ? key : "\(table).\(key)" }

        func checkKeys() throws(PolicyFileError) {
            for entry in entries where !PolicyDocument.keys.contains(where: { $0.table == entry.table && $0.key == entry.key }) {
                let known = PolicyDocument.keys.filter { $0.table == entry.table }.map(\.key)
                let hint = known.isEmpty ? "there is no table [\(entry.table)]" : "known keys: \(known.joined(separator: ", "))"
                throw PolicyFileError(file: file, position: entry.keyPosition,
                                      message: "unknown key \(name(entry.table, entry.key)); \(hint)")
            }
        }

        func typeError(_ entry: PolicyEntry, _ expected: String) -> PolicyFileError {
            PolicyFileError(file: file, position: entry.valuePosition,
                            message: "\(name(entry.table, entry.key)) takes \(expected), not \(entry.value.typeName)")
        }

        func string(_ table: String, _ key: String) throws(PolicyFileError) -> String? {
            guard let entry = entry(table, key) else { return nil }
            guard case .string(let value) = entry.value else { throw typeError(entry, "a string") }
            return value
        }

        func bool(_ table: String, _ key: String) throws(PolicyFileError) -> Bool? {
            guard let entry = entry(table, key) else { return nil }
            guard case .boolean(let value) = entry.value else { throw typeError(entry, "true or false") }
            return value
        }

        func integer(_ table: String, _ key: String, in range: ClosedRange<Int>) throws(PolicyFileError) -> Int? {
            guard let entry = entry(table, key) else { return nil }
            guard case .integer(let value) = entry.value else { throw typeError(entry, "an integer") }
            guard range.contains(value) else {
                throw error(table, key, "\(name(table, key)) must be within \(range.lowerBound)…\(range.upperBound), not \(value)")
            }
            return value
        }

        func number(_ table: String, _ key: String, in range: ClosedRange<Double>) throws(PolicyFileError) -> Double? {
            guard let entry = entry(table, key) else { return nil }
            let value: Double
            switch entry.value {
            case .float(let number): value = number
            case .integer(let number): value = Double(number)
            default: throw typeError(entry, "a number")
            }
            guard range.contains(value) else {
                throw error(table, key, "\(name(table, key)) must be within \(range.lowerBound)…\(range.upperBound), not \(value)")
            }
            return value
        }

        func strings(_ table: String, _ key: String) throws(PolicyFileError) -> [String]? {
            guard let entry = entry(table, key) else { return nil }
            guard case .array(let items) = entry.value else { throw typeError(entry, "an array of strings") }
            var result: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    throw itemError(table, key, index, "\(name(table, key)) takes an array of strings, not \(item.typeName) in it")
                }
                result.append(text)
            }
            return result
        }

        func word<Word: VocabularyWord>(_ table: String, _ key: String, _: Word.Type) throws(PolicyFileError) -> Word? {
            guard let text = try string(table, key) else { return nil }
            do {
                return try Word.parse(text)
            } catch {
                throw self.error(table, key, error.message)
            }
        }

        func choice<T>(_ table: String, _ key: String, _ choices: [String: T]) throws(PolicyFileError) -> T? {
            guard let text = try string(table, key) else { return nil }
            guard let value = choices[text] else {
                throw error(table, key, "\(name(table, key)) is one of \(choices.keys.sorted().joined(separator: ", ")), not '\(text)'")
            }
            return value
        }
    }
}

/// A policy named in a file, and where.
public struct PolicyReference: Hashable, Sendable {
    public var name: String
    public var position: SourcePosition
}

/// The policies in force, built from policy files in precedence order.
public enum PolicyLibrary {
    /// Parses every file (name → text, already read along the search path); returns the set and
    /// every file's error. A set is returned only when no file has an error.
    public static func load(_ files: [(file: String, name: String, text: String)]) -> (PolicySet?, [PolicyFileError]) {
        let (documents, errors) = parse(files)
        return assemble(documents, errors)
    }

    /// Parses each file on its own: the documents that are good, and the errors of the others.
    public static func parse(_ files: [(file: String, name: String, text: String)]) -> ([PolicyDocument], [PolicyFileError]) {
        var documents: [PolicyDocument] = []
        var errors: [PolicyFileError] = []
        for file in files {
            do {
                documents.append(try PolicyDocument(text: file.text, file: file.file, name: file.name))
            } catch {
                errors.append(error)
            }
        }
        return (documents, errors)
    }

    /// Puts read documents together into the set in force; any error (theirs, or a name used twice)
    /// refuses the whole set.
    public static func assemble(_ documents: [PolicyDocument], _ readErrors: [PolicyFileError]) -> (PolicySet?, [PolicyFileError]) {
        var errors = readErrors
        var seenNames: [String: String] = [:]
        for document in documents {
            if let other = seenNames[document.policy.name] {
                errors.append(PolicyFileError(file: document.file, position: SourcePosition(line: 1, column: 1),
                                              message: "policy name '\(document.policy.name)' is also used by \(other)"))
            }
            seenNames[document.policy.name] = document.file
        }
        guard errors.isEmpty else { return (nil, errors) }
        var documents = documents
        for index in documents.indices {
            guard let like = documents[index].like else { continue }
            guard let model = documents.first(where: { $0.policy.name == like.name && $0.like == nil }) else {
                let known = documents.filter { $0.like == nil }.map(\.policy.name).sorted().joined(separator: ", ")
                errors.append(PolicyFileError(file: documents[index].file, position: like.position,
                                              message: "like = \"\(like.name)\": no policy of that name to take settings from; the policies: \(known)"))
                continue
            }
            var policy = model.policy
            policy.name = documents[index].policy.name
            policy.match = documents[index].policy.match
            documents[index].policy = policy
        }
        guard errors.isEmpty else { return (nil, errors) }
        let ordered = documents.sorted { ($0.precedence, $1.policy.name) > ($1.precedence, $0.policy.name) }
        var fallbacks: [String: String] = [:]
        for document in ordered {
            for role in document.fallbackForRoles where fallbacks[role] == nil { fallbacks[role] = document.policy.name }
        }
        return (PolicySet(policies: ordered.map(\.policy), fallbackByRole: fallbacks), [])
    }
}
