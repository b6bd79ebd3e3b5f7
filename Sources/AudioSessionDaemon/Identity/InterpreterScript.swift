// SPDX-License-Identifier: Apache-2.0

/// The script an interpreter runs: Lollypop and many other apps show only the binary `python3`; the
/// script (`/usr/bin/lollypop`, or `-m lollypop`) is what names them.
enum InterpreterScript {
    /// Interpreters by their name without a version (`python3.11` → `python`). Shells are not among
    /// them: a shell script plays through the programs it starts, which are apps of their own.
    static let interpreters: Set<String> = [
        "python", "perl", "ruby", "node", "nodejs", "gjs", "lua", "luajit", "php", "tclsh", "wish",
    ]

    /// Options that take a value in the next argument, of the interpreters above.
    static let optionsWithValue: Set<String> = ["-W", "-X", "-I", "-r", "--require", "--include-path"]

    /// Whether a binary is an interpreter.
    static func isInterpreter(_ binary: String) -> Bool {
        var stem = Substring(binary)
        while let last = stem.last, last.isNumber || last == "." { stem = stem.dropLast() }
        return interpreters.contains(String(stem))
    }

    /// The script named by an interpreter's arguments (`argv` with the interpreter first), without its
    /// folder or extension; nil for code given inline (`-c`, `-e`) or a binary that is no interpreter.
    static func script(arguments: [String]) -> String? {
        guard let binary = arguments.first?.split(separator: "/").last, isInterpreter(String(binary)) else { return nil }
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-m": return index + 1 < arguments.count ? arguments[index + 1] : nil
            case "-c", "-e", "--eval", "-": return nil
            case _ where optionsWithValue.contains(argument): index += 2
            case _ where argument.hasPrefix("-"): index += 1
            default: return name(ofScript: argument)
            }
        }
        return nil
    }

    /// A script path's file name without a known extension.
    static func name(ofScript path: String) -> String? {
        guard var name = path.split(separator: "/").last.map(String.init), !name.isEmpty else { return nil }
        for suffix in [".py", ".pl", ".rb", ".js", ".mjs", ".sh", ".lua", ".php"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name.isEmpty ? nil : name
    }

    /// `/proc/PID/cmdline` split at its NUL bytes.
    static func arguments(ofCommandLine bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.isEmpty }
    }
}
