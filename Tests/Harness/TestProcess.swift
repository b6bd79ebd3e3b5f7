// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A child process of a test: started with an environment, its output in a log file, ended on demand
/// and always at teardown. It uses `posix_spawnp` and `waitpid` directly: Foundation's `Process`
/// reaps children with a blocking wait on one of them, which stalls when several live at once.
public final class TestProcess: @unchecked Sendable {
    public let name: String
    public let logPath: String
    public let pid: Int32
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` (a name looked up in PATH, or a path) with `arguments` and `environment`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], logDirectory: String,
                name: String? = nil) throws {
        self.name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        logPath = "\(logDirectory)/\(self.name)-\(UUID().uuidString.prefix(8)).log"
        pid = try Self.spawn(try Self.which(executable), arguments, environment: environment, output: logPath)
    }

    private static func spawn(_ path: String, _ arguments: [String], environment: [String: String], output: String)
        throws -> Int32
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else the test process has open reaches the child: a descriptor another thread holds
        // open for writing (a program being copied, say) would otherwise stay open in a long-lived
        // child, and executing that program would fail with ETXTBSY for as long as the child lives.
        _ = Self.closeFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own, so that signals to the test do not reach it; default signal
        // dispositions and an empty mask, whatever the spawning thread blocks.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: Int32 = 0
        let result = spawning.withLock { posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        guard result == 0 else { throw HarnessError("could not start \(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Held while a child is started: from the clone until its `exec`, a child holds a copy of every
    /// descriptor the test process has open, a file another thread is writing among them.
    private static let spawning = NSLock()

    /// Writes `text` to `path` (atomically) while no child is being started, so that the file's last
    /// close, and its inotify `IN_CLOSE_WRITE`, have come when this returns. Written alongside a spawn,
    /// a child's copy of the descriptor closes later (12 writes of 3,000, in a C trial with two threads
    /// spawning), and a folder watch reports the file again after the writer has moved on.
    public static func writeWithNoChildStarting(_ text: String, to path: String) throws {
        try spawning.withLock { try text.write(toFile: path, atomically: true, encoding: .utf8) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not show.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("this glibc has no posix_spawn_file_actions_addclosefrom_np")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Whether it has not exited yet (reaps it if it has).
    public var isRunning: Bool {
        lock.withLock {
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
            return exitStatus == nil
        }
    }

    /// Waits for it to exit and returns its exit code (or 128 + signal).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        lock.withLock {
            if exitStatus == nil {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                exitStatus = status
            }
            let status = exitStatus!
            return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    /// Sends SIGTERM, then SIGKILL if it is still there after `grace`, reaps it and returns its exit
    /// code (128 + 9 when it had to be killed).
    @discardableResult
    public func stop(grace: Duration = .seconds(2)) -> Int32 {
        guard isRunning else { return waitUntilExit() }
        kill(pid, SIGTERM)
        if !hasExited(within: grace) { kill(pid, SIGKILL) }
        return waitUntilExit()
    }

    /// Waits until the process has exited or `limit` has passed, whichever comes first, without reaping
    /// it: its pid stays its own, to signal, until ``waitUntilExit()``. The kernel says when it exits
    /// (a pidfd becomes readable), so nothing is polled on a clock. A pidfd that cannot be opened or
    /// watched stops the test run with the error: an answer guessed then would kill a command that
    /// was still working, or wait for one that never ends.
    public func hasExited(within limit: Duration) -> Bool {
        // Opened while nothing can reap the child (reaping takes the lock), so it is this process.
        // Its errno is read at once, before the unlock can touch it.
        guard let (descriptor, error) = lock.withLock({ exitStatus == nil ? (Self.pidfdOpen(pid, 0), errno) : nil }) else {
            return true
        }
        precondition(descriptor >= 0, "pidfd_open(\(pid)) failed: \(String(cString: strerror(error)))")
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + limit
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            // Rounded up, so that the wait never ends before its limit.
            let milliseconds = max(0, ((deadline - ContinuousClock.now) / .milliseconds(1)).rounded(.up))
            let ready = poll(&entry, 1, Int32(min(milliseconds, Double(Int32.max))))
            if ready >= 0 { return ready > 0 }
            precondition(errno == EINTR, "poll on the pidfd of \(pid) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// glibc's `pidfd_open` (2.36 and later), which Swift's Glibc module does not show.
    private static let pidfdOpen: @convention(c) (pid_t, UInt32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else {
            fatalError("this glibc has no pidfd_open")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// Sends SIGKILL and reaps it.
    public func kill9() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        waitUntilExit()
    }

    /// How the process ended, for a message: its exit status, which is 128 + N for signal N.
    public var exitDescription: String { "exited with status \(waitUntilExit()) (128 + N: signal N)" }

    /// What the process printed so far.
    public var output: String { textSoFar(logPath) }

    /// What the process is doing (``ProcessFigures/activity``), or how it ended: for a message about a
    /// wait it did not end.
    public var processState: String { isRunning ? ProcessFigures(pid: pid).activity : exitDescription }

    /// The full path of a command in PATH.
    public static func which(_ name: String) throws -> String {
        if name.hasPrefix("/") { return name }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw HarnessError("'\(name)' is not installed; `make test` installs it")
    }

    /// Runs a command to its end and returns its exit status and output. A command still running after
    /// `limit` is killed and reported: a server that stopped answering (a `pactl` waits for its answer
    /// forever) fails the test that asked, instead of holding the whole run.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                           limit: Duration = runLimit) throws -> (status: Int32, output: String)
    {
        let directory = NSTemporaryDirectory()
        let process = try TestProcess(executable, arguments, environment: environment, logDirectory: directory)
        defer { try? FileManager.default.removeItem(atPath: process.logPath) }
        guard process.hasExited(within: limit) else {
            process.kill9()
            throw HarnessError("\(executable) \(arguments.joined(separator: " ")) did not end within \(limit) and was killed; "
                + "it printed: \(process.output.suffix(1500))")
        }
        return (process.waitUntilExit(), process.output)
    }

    /// How long ``run(_:_:environment:limit:)`` lets a command run: far beyond any command's work here
    /// (building a package takes about a minute), so that only a command that waits for good reaches it.
    public static let runLimit = Duration.seconds(300)
}

/// A harness failure, with what to do about it.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes. Readiness is always
/// awaited this way, never by sleeping a fixed time.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
                      _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return }
        if ContinuousClock.now >= deadline { throw HarnessError("timed out after \(timeout) waiting for \(what())") }
        usleep(10_000)
    }
}

/// The async form of ``waitUntil(_:timeout:_:)``.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
                      _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        if ContinuousClock.now >= deadline { throw HarnessError("timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
