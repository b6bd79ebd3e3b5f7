// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import AudioSessionIPC
import DBusKit
import Dispatch
import FoundationEssentials
import Glibc
import PulseAudioClient

/// How `audiosessiond` runs.
public struct DaemonOptions: Sendable {
    public enum LogFormat: String, Sendable { case text, json }
    public var bus: BusConnection.Address = .session
    /// The sound server (`unix:/path`, or a socket path), or nil for libpulse's default.
    public var server: String?
    /// ``server`` as libpulse takes it: a bare socket path gets `unix:`.
    var serverAddress: String? { server.map { $0.contains(":") ? $0 : "unix:\($0)" } }
    public var logFormat = LogFormat.text
    /// Where the event log goes: a file path, "-" for stdout, nil for stdout.
    public var logFile: String?
    /// Run without a bus name: observe, apply policy sessions, and log.
    public var headless = false
    /// Where the journal lives.
    public var journalDirectory = EffectJournal.defaultDirectory
    /// Also send the log to the systemd journal, when its socket exists.
    public var journald = false
    /// Policy folders given with `--policies` (empty: the installed one).
    public var policyFolders: [String] = []
    /// How long the server must stay up before the bridge's connection takes up its shared memory
    /// (see ``ServerAdapter/sharedMemoryDelay``); benchmarks and tests shorten it.
    public var sharedMemoryDelay = ServerAdapter.sharedMemoryDelay

    public init() {}
}

/// The assembled bridge: loop, core, journal, event log, bus service and signals.
public final class Daemon: @unchecked Sendable {
    public let options: DaemonOptions
    public let loop: PulseLoop
    public let core: BridgeCore
    let journal: EffectJournal
    /// The record permissions the user decided.
    let permissions: PermissionStore
    private var service: BusService?
    private var connection: BusConnection?
    private var signals: PulseSignals?
    private let finished = DispatchSemaphore(value: 0)
    private var exitStatus: Int32 = 0
    private var recovered = false
    private var stopping = false
    private var finishedOnce = false
    private lazy var stopDeadline = PulseTimer(loop: loop) { [unowned self] in finish() }
    private var unwrittenRecords: [LogRecord] = []
    private lazy var logTimer = PulseTimer(loop: loop) { [unowned self] in flushRecords() }
    private let roleModules: RoleModules
    private var policyWatcher: PolicyWatcher?
    private var login: LoginMonitor?
    private let output: LogOutput
    private let journalSink: JournalSink?

    public init(options: DaemonOptions) throws {
        self.options = options
        loop = try PulseLoop()
        let server = options.serverAddress
        core = BridgeCore(loop: loop, server: server, engine: PolicyEngine(policies: DefaultPolicies.set),
                          sharedMemoryDelay: options.sharedMemoryDelay)
        journal = try EffectJournal(directory: options.journalDirectory)
        permissions = PermissionStore(directory: options.journalDirectory)
        roleModules = RoleModules(adapter: core.adapter, stateDirectory: options.journalDirectory)
        // Under systemd (its journal on our standard stream) records go to the journal natively, once.
        let underSystemd = JournalFields.standardStreamIsJournal
        journalSink = options.journald || underSystemd ? JournalSink() : nil
        if let path = options.logFile, path != "-" {
            output = try LogOutput(appendingTo: path)
        } else if underSystemd && journalSink != nil {
            output = .nowhere
        } else {
            output = LogOutput()
        }
        // The signals are handled before the bridge takes its bus name, the moment it counts as ready
        // (systemd's Type=dbus, the tests): a SIGHUP sent then (a reload) ended a bridge that had its
        // name and not yet its handler, as the signal's default does.
        signals = PulseSignals(loop: loop, signals: [SIGTERM, SIGINT, SIGHUP]) { [unowned self] number in
            if number == SIGHUP { loadPolicies() } else { stop() }
        }
        core.writeJournal { [unowned self] action in journal.apply(action) }
        core.observeActions { [unowned self] action in
            log(action)
            switch action {
            case .storeRecordPermission(let app, let permission): keep(app, permission)
            // Without the bus there is no one to ask: the policy's default stands.
            case .askRecordPermission(let app, _) where service == nil: core.send(.recordPermissionAnswered(app: app, nil))
            default: break
            }
        }
        // A stopping bridge whose server went away has nothing more to wait for.
        core.observeEvents { [unowned self] event in
            if stopping, case .serverLost = event { finish() }
        }
        core.adapter.onReady = { [unowned self] in
            service?.firstReading.open()
            recoverOnce()
            roleModules.takeOver()
            core.adapter.removeLeftoverCombinedOutputs(keeping: Set(core.engine.combinedOutputs.values.map(\.name)))
        }
        // logind, when there is a system bus (not the bus the bridge serves on, if that is the system
        // bus); the lock state is read before the bridge takes its name.
        if options.bus != .system { login = LoginMonitor(loop: loop, core: core) }
        if !options.headless {
            let connection = try BusConnection(options.bus)
            connection.attach(to: loop)
            self.connection = connection
            let service = BusService(core: core, connection: connection)
            try service.start()
            self.service = service
        }
        loadPolicies()
        loadPermissions()
        policyWatcher = PolicyWatcher(loop: loop, folders: PolicyLoader(base: options.policyFolders).folders) {
            [unowned self] in loadPolicies()
        }
    }

    /// Reads the policy files; a broken set is reported and the last good one stays in force.
    public func loadPolicies() {
        let (set, policyByFile, errors) = PolicyLoader(base: options.policyFolders).load()
        for error in errors {
            write(LogRecord(timestamp: Date(), event: "policy.error", fields: [
                ("file", .string(error.file)), ("line", .int(error.position.line)),
                ("column", .int(error.position.column)), ("message", .string(error.message)),
            ]))
        }
        guard let set else { return }
        for (file, policy) in policyByFile {
            write(LogRecord(timestamp: Date(), event: "policy.loaded", fields: [
                ("file", .string(file)), ("policies", .array([.string(policy)])),
            ]))
        }
        core.send(.policiesLoaded(set))
    }

    /// Hands the kept record permissions to the engine; a damaged file is reported and taken as empty.
    private func loadPermissions() {
        if let problem = permissions.problem { writePermissionError(problem) }
        if !permissions.decisions.isEmpty { core.send(.recordPermissionsLoaded(permissions.decisions)) }
    }

    /// Writes a decision to the permissions file; a failure is reported, and the decision holds for this run.
    private func keep(_ app: String, _ permission: RecordPermission) {
        do { try permissions.set(app, permission) } catch {
            writePermissionError("\(permissions.path) could not be written: \(error)")
        }
    }

    private func writePermissionError(_ message: String) {
        write(LogRecord(timestamp: Date(), event: "permission.error",
                        fields: [("file", .string(permissions.path)), ("message", .string(message))]))
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        loop.start()
        loop.perform { [self] in
            service?.firstReading.startWaiting()
            core.start()
        }
        finished.wait()
        loop.stop()
        connection?.close()
        return exitStatus
    }

    /// Undoes every effect, waits until the server has reported back every level the bridge set
    /// (``BridgeCore/shutDown(commandsRead:reported:)``), however slow a loaded server is, hands the role
    /// modules back and ends ``run()``. On the loop thread. It ends early only when the connection is
    /// lost (the server went away at the same moment) or after ``stopWait``: the journal still holds
    /// what could not be undone.
    public func stop() {
        guard !stopping else { return }
        stopping = true
        stopDeadline.arm(after: Self.stopWait)
        core.shutDown { [unowned self] in roleModules.handBack { [unowned self] in finish() } }
    }

    /// The longest a stopping bridge waits for a server that neither answers nor goes away.
    static let stopWait = Duration.seconds(10)

    private func finish() {
        guard !finishedOnce else { return }
        finishedOnce = true
        flushRecords()
        connection?.flush()
        finished.signal()
    }

    private func recoverOnce() {
        guard !recovered else { return }
        recovered = true
        guard !journal.leftovers.isEmpty else { return }
        core.send(.journalLeftovers(journal.leftovers))
        core.adapter.afterPendingCommands { [unowned self] in journal.forgetLeftovers() }
    }

    /// Queues the record an action makes, if any. The engine is read in place, not copied: this runs
    /// for every journal entry and command of a step before the commands leave.
    private func log(_ action: PolicyAction) {
        guard let record = EventLogRecords.record(for: action, app: { [unowned self] in core.engine.sessions[$0]?.appID ?? "" },
                                                  at: Date())
        else { return }
        write(record)
    }

    /// Queues a record; the records of a burst of engine steps go out together shortly after, once the
    /// steps' server commands have left (a log line or an `Event` signal never delays a mute).
    private func write(_ record: LogRecord) {
        unwrittenRecords.append(record)
        logTimer.armIfIdle(after: BridgeCore.bookkeepingDelay)
    }

    /// Writes the queued records to the log (one write), then to the systemd journal and the bus: a
    /// record a monitor has seen is already in the log.
    private func flushRecords() {
        guard !unwrittenRecords.isEmpty else { return }
        let records = unwrittenRecords.map { (record: $0, json: $0.json) }
        unwrittenRecords = []
        output.write(records.map { (options.logFormat == .json ? $0.json : $0.record.text) + "\n" }.joined())
        for (record, json) in records {
            journalSink?.send(record)
            service?.emitEvent(json: json, at: record.timestamp)
        }
    }
}

extension Daemon {
    /// `audiosessiond --restore-journal`: connects to the server and puts every stream a stopped bridge
    /// left changed back to the user's levels; throws when the server cannot be reached. It takes the
    /// bridge's own path: the engine takes the journal's leftovers as its changes (as a starting bridge
    /// does) and undoes them as a stopping bridge does, and the run ends once the server has reported
    /// every level back (or after ``restoreReportWait``), not when it has merely acknowledged them.
    public static func restoreJournal(options: DaemonOptions) throws {
        let loop = try PulseLoop()
        // A short connection to a server that may be going away: no shared memory (see ServerAdapter+SharedMemory).
        let core = BridgeCore(loop: loop, server: options.serverAddress, sharedMemoryDelay: nil)
        let journal = try EffectJournal(directory: options.journalDirectory)
        guard !journal.leftovers.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        // Loop-thread state: the run is over.
        var finished = false
        let finish = {
            guard !finished else { return }
            finished = true
            journal.forgetLeftovers()
            done.signal()
        }
        let deadline = PulseTimer(loop: loop, finish)
        core.adapter.onReady = {
            core.send(.journalLeftovers(journal.leftovers))
            core.shutDown(commandsRead: { deadline.arm(after: restoreReportWait) }, reported: finish)
        }
        loop.start()
        loop.perform { core.start() }
        guard done.wait(timeout: .now() + 10) == .success else {
            throw DaemonError("cannot reach the sound server to restore the journal")
        }
    }

    /// How long `--restore-journal` waits for the server to report the restored levels.
    public static let restoreReportWait = Duration.seconds(2)
}

/// A daemon failure, with what to do.
public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
