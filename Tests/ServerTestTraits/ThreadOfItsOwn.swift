// SPDX-License-Identifier: Apache-2.0
// `make release` builds every target, this one too, where Swift Testing is not there to import (the
// static standard library has no Testing module): there the target is empty. The tests build it whole.
#if canImport(Testing)
import Dispatch
import Foundation
import Testing

/// Runs each test case of a suite on a thread of its own, at most ``width`` of them at once, and fails
/// a case for every process of its sound servers that ended on its own (``watchingServerProcesses(_:)``).
///
/// The server suites block while they wait for a server's state (the harness polls with `usleep`), and
/// Swift Testing runs every test case on Swift's shared pool, which on Linux has one thread per core, so
/// that a waiting case held a thread the other suites needed. A case under this trait takes a place
/// among ``width`` (waiting its turn without holding a thread), and its body runs on a serial queue of
/// its own, which libdispatch gives a thread of its own.
public struct ThreadOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    /// On a suite, the trait reaches every case of every test in it.
    public var isRecursive: Bool { true }

    /// How many cases under the trait run at once: `AUDIOSESSION_TEST_WIDTH`, or two per core (DECISIONS
    /// 123): a case spends most of its time waiting for a server, a bridge or a program.
    public static let width: Int = {
        guard let text = ProcessInfo.processInfo.environment["AUDIOSESSION_TEST_WIDTH"], !text.isEmpty else {
            return 2 * ProcessInfo.processInfo.activeProcessorCount
        }
        guard let width = Int(text), width > 0 else {
            fatalError("AUDIOSESSION_TEST_WIDTH is '\(text)'; it takes a count of cases at once, 1 or more")
        }
        return width
    }()

    private static let places = Places(width)

    /// Each case is scoped, not the suite or the test around it: a test holding a place while its
    /// cases wait for theirs could take every place.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    /// Waits for a place, runs the case on a queue of its own under a watch of its servers' processes,
    /// and gives the place back.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        await Self.places.take()
        do {
            try await watchingServerProcesses {
                try await withTaskExecutorPreference(QueueExecutor()) { try await function() }
            }
        } catch {
            await Self.places.give()
            throw error
        }
        await Self.places.give()
    }
}

extension Trait where Self == ThreadOfItsOwn {
    /// Each case on a thread of its own, at most ``ThreadOfItsOwn/width`` at once.
    public static var threadOfItsOwn: Self { ThreadOfItsOwn() }
}

/// A counted set of places, handed out in the order they were asked for.
private actor Places {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// A task executor that runs its jobs on a serial queue of its own.
private final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "io.github.audiosession.test-case")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif
