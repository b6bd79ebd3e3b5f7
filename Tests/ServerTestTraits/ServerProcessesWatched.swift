// SPDX-License-Identifier: Apache-2.0
// Empty where Swift Testing is not there to import, as ThreadOfItsOwn.swift says.
#if canImport(Testing)
import AudioTestHarness
import Testing

/// Runs `body` with a ``ServerProcessWatch`` for the sound servers it starts, then records an issue for
/// each of their processes that ended on its own (a crash, an exit), whether `body` passed or threw,
/// and a warning for each that crashed when teardown told it to end.
///
/// A crashed server process can take away just what a test waits for (a device, a stream) and so pass
/// for it; this makes the crash the case's failure (DECISIONS 138). A crash on the way out is the
/// server's own, after the test; the warning keeps it in the test log.
public func watchingServerProcesses(_ body: () async throws -> Void) async throws {
    let watch = ServerProcessWatch()
    defer {
        for ended in watch.endedOnTheirOwn {
            Issue.record("a server process ended on its own during the test: \(ended)")
        }
        for ended in watch.endedBadlyAtTeardown {
            Issue.record("a server process told to end at teardown crashed: \(ended)", severity: .warning)
        }
    }
    try await ServerProcessWatch.$current.withValue(watch) { try await body() }
}
#endif
