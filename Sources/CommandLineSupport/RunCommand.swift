import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Parses the arguments and runs the command, with the exit statuses of INTERFACES.md: 0 ok,
    /// 1 runtime failure, 2 bad usage (ArgumentParser's own would be 64).
    public static func runWithExitStatuses() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
