// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation

/// R6: policy files broken while the bridge runs.
extension SoakRuns {
    /// A corruption of a policy file's text, of one of the kinds people make: cut short, a stray
    /// line, a value of the wrong type, a table twice, an unclosed string or array.
    static func corrupt(_ text: String, random: inout some RandomNumberGenerator) -> String {
        var lines = text.components(separatedBy: "\n")
        let at = Int.random(in: 0..<max(1, lines.count), using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return String(text.prefix(Int.random(in: 0..<max(1, text.count), using: &random)))
        case 1: lines.insert(["}{", "= 3", "[[", "key = ", "ü ü"].randomElement(using: &random)!, at: at)
        case 2: lines.insert("category = 5", at: at)
        case 3: lines.insert("[session]", at: at)
        case 4: lines[at] += " \"unclosed"
        default: lines[at] += " = [1, 2"
        }
        return lines.joined(separator: "\n")
    }

    /// R6: `cycles` corruptions of the shipped policy files (in a copy the bridge reads) while it
    /// runs, each followed by SIGHUP. Each must be reported with the file, a line and a column, or be
    /// loaded if it is still valid; the bridge keeps serving, and with every file broken at once it
    /// still governs a music stream by the last good set.
    public static func policyEdits(_ kind: SoundServerKind, cycles: Int) throws -> SoakResult {
        let server = try SoundServer(kind, lifetime: SoakRig.lifetime)
        defer { server.stop() }
        let folder = server.root + "/soak-policies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder).filter { $0.hasSuffix(".toml") }.sorted()
        var originals: [String: String] = [:]
        for file in files {
            originals[file] = try String(contentsOfFile: BridgeDaemon.policiesFolder + "/" + file, encoding: .utf8)
            try originals[file]!.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        }
        let daemon = try BridgeDaemon(server: server, arguments: ["--policies", folder])
        defer { daemon.terminate() }
        var result = SoakResult(run: "R6 broken policy edits", stack: kind, cycles: cycles)
        var random = SystemRandomNumberGenerator()
        var reported = 0, stillValid = 0
        func records(_ event: String, since: Int, file: String) -> [[String: Any]] {
            daemon.records.dropFirst(since).filter { $0["event"] as? String == event && ($0["file"] as? String)?.hasSuffix("/" + file) == true }
        }
        for cycle in 1...cycles {
            let file = files.randomElement(using: &random)!
            let path = folder + "/" + file
            let mark = daemon.records.count
            try corrupt(originals[file]!, random: &random).write(toFile: path, atomically: true, encoding: .utf8)
            kill(daemon.process.pid, SIGHUP)
            let outcome = timeUntil { !records("policy.error", since: mark, file: file).isEmpty || !records("policy.loaded", since: mark, file: file).isEmpty }
            if outcome == nil {
                result.failures.append("edit \(cycle) of \(file): neither reported nor loaded")
            } else if let error = records("policy.error", since: mark, file: file).first {
                if (error["line"] as? Int ?? 0) > 0 && (error["column"] as? Int ?? 0) > 0 { reported += 1 } else {
                    result.failures.append("edit \(cycle) of \(file): reported without line and column: \(error)")
                }
            } else {
                stillValid += 1
            }
            if !daemon.process.isRunning { throw HarnessError("the bridge exited at edit \(cycle): \(daemon.process.output.suffix(400))") }
            // Back to the original, and loaded again: a corruption that was still valid must not stay the
            // last good set for the step below.
            let restored = daemon.records.count
            try originals[file]!.write(toFile: path, atomically: true, encoding: .utf8)
            kill(daemon.process.pid, SIGHUP)
            if timeUntil({ !records("policy.loaded", since: restored, file: file).isEmpty }) == nil {
                result.failures.append("edit \(cycle) of \(file): the original was not loaded again")
            }
        }
        // Every file broken at once: the bridge keeps its last good set and governs a music stream by it.
        let mark = daemon.records.count
        for file in files { try corrupt(originals[file]!, random: &random).write(toFile: folder + "/" + file, atomically: true, encoding: .utf8) }
        kill(daemon.process.pid, SIGHUP)
        _ = timeUntil { daemon.records.dropFirst(mark).contains { ($0["event"] as? String)?.hasPrefix("policy.") == true } }
        try server.playDetached(app: "soak-music", role: "music")
        if timeUntil({ daemon.records.contains { $0["event"] as? String == "session.created" && $0["app"] as? String == "soak-music"
            && $0["policy"] as? String == "media-player" } }) == nil
        {
            result.failures.append("with every file broken, a music stream was not governed by media-player")
        }
        result.figures = [("reported with file:line:column", "\(reported)"), ("still valid, loaded", "\(stillValid)")]
        return result
    }
}
