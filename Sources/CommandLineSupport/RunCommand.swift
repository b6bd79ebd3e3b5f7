// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Glibc

extension ParsableCommand {
    /// Parses the arguments and runs the command, with the exit statuses of INTERFACES.md: 0 ok,
    /// 1 runtime failure, 2 bad usage (ArgumentParser's own would be 64).
    public static func runWithExitStatuses() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch {
            if exitCode(for: error) == .validationFailure {
                writeToStandardError(fullMessage(for: error) + "\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Writes `text` to standard error, unbuffered.
public func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
