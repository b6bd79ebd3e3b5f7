// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Programs a test puts in place before it runs them: copies named as the app they stand for, and
/// small scripts.
///
/// The test process never holds such a file open for writing. Tests run in parallel, and a child
/// another test's thread is starting inherits every descriptor the test process has open until it
/// closes them (``TestProcess`` closes all but its standard ones, but only once the child runs): a
/// program executed while that child still holds it open for writing fails with ETXTBSY ("Text file
/// busy"; seen in `make stress`). So `install`, in a process of its own that has ended before the
/// program runs, writes each one.
public enum ProgramFiles {
    /// Copies the program `source` (a name on `PATH`, or a path) to `path`, executable.
    public static func copy(_ source: String, to path: String) throws {
        try install(TestProcess.which(source), at: path)
    }

    /// Writes `script` (with its `#!` line) to `path`, executable.
    public static func write(script: String, to path: String) throws {
        try makeFolder(of: path)
        let text = path + ".text"
        try script.write(toFile: text, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        try install(text, at: path)
    }

    private static func makeFolder(of path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
    }

    private static func install(_ source: String, at path: String) throws {
        try makeFolder(of: path)
        let (status, output) = try TestProcess.run("/usr/bin/install", ["-m", "0755", source, path],
                                                   environment: ProcessInfo.processInfo.environment)
        guard status == 0 else { throw HarnessError("could not install \(path): \(output)") }
    }
}
