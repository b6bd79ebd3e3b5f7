// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
@_exported import AudioSessionModel
import DBusKit
import Foundation

/// The app's audio session, shaped like `AVAudioSession`: code written for AVAudioSession ports by
/// renaming `AVAudioSession` to `AudioSession`. It talks to the bridge over D-Bus only.
///
/// The session is created on the bridge at first use and belongs to this process's connection. If
/// the bridge restarts, the library creates it again, applies the category, mode, options,
/// preferences and activation it had, and posts ``mediaServicesWereResetNotification``.
public final class AudioSession: @unchecked Sendable {
    /// The app's session.
    public static let shared = AudioSession(bus: .session, appID: ProcessInfo.processInfo.processName)

    /// The app's session (Apple's spelling).
    public static func sharedInstance() -> AudioSession { shared }

    /// What the app asked for, applied again after a restart of the bridge.
    struct Desired {
        var configuration = SessionConfiguration.initial
        var active = false
        /// The session asked for its turn (`requestActivation`) and has not been granted it.
        var waitsForTurn = false
        var preferredSampleRate: Double?
        var preferredIOBufferDuration: Double?
        var preferredInput: String?
        var portOverride = PortOverride.none
        var prefersNoInterruptionsFromSystemAlerts = false
        var nowPlayingPlayer: String?
    }

    let appID: String
    private let link: BridgeLink
    /// Guards the state below; never held across a call to the bridge.
    let lock = NSRecursiveLock()
    /// Serialises the creation of the session on the bridge.
    private let creation = NSLock()
    private var desired = Desired()
    private var sessionPath: String?
    private var token: String?
    private var lostBridge = false
    private let notifications = DispatchQueue(label: "io.github.audiosession.notifications")
    var interruptionContinuations: [UUID: AsyncStream<Interruption>.Continuation] = [:]
    var routeContinuations: [UUID: AsyncStream<RouteChange>.Continuation] = [:]
    var hintContinuations: [UUID: AsyncStream<SilenceSecondaryAudioHintType>.Continuation] = [:]
    var mediaContinuations: [UUID: AsyncStream<MediaServicesEvent>.Continuation] = [:]
    /// The streams of ``activationGrants()``.
    var grantContinuations: [UUID: AsyncStream<Void>.Continuation] = [:]
    /// The session's properties as the bridge last published them (GetAll at creation, then
    /// PropertiesChanged), so that a read is not a round trip.
    private var cache: [String: BusValue] = [:]
    /// Observers of properties, by D-Bus property name (see `AudioSession+Properties`).
    var propertyObservers: [String: [UUID: @Sendable () -> Void]] = [:]

    /// A session of the given app on the session bus, for a process that speaks for more than one app
    /// (``shared`` takes the process name as the app id).
    public convenience init(appID: String) {
        self.init(bus: .session, appID: appID)
    }

    /// A session on a given bus, for apps that are not the process's main one (and for tests).
    public convenience init(busAddress: String, appID: String) {
        self.init(bus: .address(busAddress), appID: appID)
    }

    init(bus: BusConnection.Address, appID: String) {
        self.appID = appID
        link = BridgeLink(address: bus)
        link.onSignal = { [weak self] message in self?.signal(message) }
        link.onBridgePresence = { [weak self] present in self?.bridgePresence(present) }
        link.start()
    }

    deinit {
        link.shutDown()
        lock.withLock {
            propertyObservers = [:]
            interruptionContinuations.values.forEach { $0.finish() }
            routeContinuations.values.forEach { $0.finish() }
            hintContinuations.values.forEach { $0.finish() }
            mediaContinuations.values.forEach { $0.finish() }
            grantContinuations.values.forEach { $0.finish() }
        }
    }

    // MARK: Calls

    func call(_ member: String, _ arguments: [BusValue] = [], timeout: Duration = .seconds(10))
        throws(AudioSessionError) -> [BusValue]
    {
        try link.call(try ensureSession(), BusContract.sessionInterface, member, arguments, timeout: timeout)
    }

    /// The session's object path, creating the session (and applying what was asked) if needed.
    private func ensureSession() throws(AudioSessionError) -> String {
        // One creator at a time; the state lock is never held across a call, because the library's
        // loop thread takes it to deliver signals while a call waits for its reply.
        creation.lock()
        defer { creation.unlock() }
        if let path = lock.withLock({ sessionPath }) { return path }
        let reply = try link.call(BusContract.managerPath, BusContract.managerInterface, "CreateSession",
                                  [.string(appID), .vardict([])])
        guard let path = reply.first?.stringValue, let token = reply.last?.stringValue else {
            throw AudioSessionError(.unspecified, "the bridge answered CreateSession with \(reply)")
        }
        lock.withLock {
            sessionPath = path
            self.token = token
        }
        do {
            try applyDesired(path)
            try loadProperties(path)
        } catch {
            lock.withLock { sessionPath = nil }
            throw error
        }
        return path
    }

    /// Applies what the app asked for to a new session (after the bridge restarted).
    private func applyDesired(_ path: String) throws(AudioSessionError) {
        let interface = BusContract.sessionInterface
        let wanted = lock.withLock { desired }
        if wanted.configuration != .initial {
            let c = wanted.configuration
            _ = try link.call(path, interface, "SetCategory",
                              [.string(c.category.rawValue), .string(c.mode.rawValue), .strings(c.options.names)])
        }
        if let rate = wanted.preferredSampleRate { _ = try link.call(path, interface, "SetPreferredSampleRate", [.double(rate)]) }
        if let duration = wanted.preferredIOBufferDuration {
            _ = try link.call(path, interface, "SetPreferredIOBufferDuration", [.double(duration)])
        }
        if let uid = wanted.preferredInput { _ = try link.call(path, interface, "SetPreferredInput", [.string(uid)]) }
        if wanted.portOverride == .speaker { _ = try link.call(path, interface, "OverrideOutputAudioPort", [.string("speaker")]) }
        if wanted.prefersNoInterruptionsFromSystemAlerts {
            _ = try link.call(path, interface, "SetPrefersNoInterruptionsFromSystemAlerts", [.bool(true)])
        }
        if let player = wanted.nowPlayingPlayer {
            // A player that cannot be registered never keeps the session from being made again.
            _ = try? link.call(path, interface, "SetNowPlayingPlayer", [.string(player)])
        }
        if wanted.active { _ = try link.call(path, interface, "SetActive", [.bool(true), .strings([])]) }
        if wanted.waitsForTurn,
            try link.call(path, interface, "RequestActivation", [.strings([])]).first?.stringValue == ActivationState.active.rawValue
        {
            // No call any more: the turn the app waits for has come.
            granted()
        }
    }

    /// The session's turn came (`ActivationGranted`, or asked again after the bridge restarted and active at once).
    func granted() {
        update {
            $0.active = true
            $0.waitsForTurn = false
        }
        lock.withLock { grantContinuations.values.forEach { $0.yield(()) } }
    }

    /// Reads every property once (at creation); PropertiesChanged keeps them from then on. The
    /// answer is stored on the library's thread, in order with the signals before and after it.
    private func loadProperties(_ path: String) throws(AudioSessionError) {
        _ = try link.call(path, "org.freedesktop.DBus.Properties", "GetAll", [.string(BusContract.sessionInterface)]) {
            [weak self] reply in
            guard let self, let values = reply.first?.stringDictionary else { return }
            lock.withLock { cache = values }
        }
    }

    /// Reads the properties from the bridge now, instead of waiting for PropertiesChanged; throws
    /// `MediaServicesFailed` when the bridge cannot be reached (which a property read cannot say).
    public func refreshProperties() throws {
        try loadProperties(try ensureSession())
    }

    /// A property as the bridge last published it; the session is created on the bridge first if it
    /// is not yet. Nil when the bridge was never reached.
    func property(_ name: String) -> BusValue? {
        if lock.withLock({ sessionPath == nil }) { _ = try? ensureSession() }
        return lock.withLock { cache[name] }
    }

    /// The bridge changed some properties: store them, then tell the observers (off the loop thread).
    private func propertiesChanged(_ changed: [String: BusValue]) {
        let observers = lock.withLock { () -> [@Sendable () -> Void] in
            cache.merge(changed) { $1 }
            return changed.keys.flatMap { (propertyObservers[$0] ?? [:]).values }
        }
        notifications.async { [self] in
            for name in changed.keys.sorted() {
                for swiftName in Self.swiftNames(ofBusProperty: name) {
                    NotificationCenter.default.post(name: Self.propertyDidChangeNotification, object: self,
                                                    userInfo: [AudioSessionPropertyNameKey: swiftName])
                }
            }
            observers.forEach { $0() }
        }
    }

    func update(_ change: (inout Desired) -> Void) {
        lock.lock()
        change(&desired)
        lock.unlock()
    }

    // MARK: Category, mode, activation

    /// Sets the category, mode and options together.
    public func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        let configuration = try SessionConfiguration(category: category, mode: mode, options: options)
        _ = try call("SetCategory", [.string(category.rawValue), .string(mode.rawValue), .strings(options.names)])
        update { $0.configuration = configuration }
    }

    /// Sets the category and options, keeping the mode if the category allows it.
    public func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        let mode = self.mode.allowedCategories.contains(category) ? self.mode : .default
        try setCategory(category, mode: mode, options: options)
    }

    /// Sets the mode, keeping the category and options.
    public func setMode(_ mode: Mode) throws {
        let changed = try lock.withLock { desired.configuration }.withMode(mode)
        try setCategory(changed.category, mode: changed.mode, options: changed.options)
    }

    /// Activates or deactivates the session.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        _ = try call("SetActive", [.bool(active), .strings(options.names)])
        update {
            $0.active = active
            $0.waitsForTurn = false
        }
    }

    /// The category the app set (``setCategory(_:mode:options:)``).
    public var category: Category { lock.withLock { desired.configuration.category } }
    /// The mode the app set.
    public var mode: Mode { lock.withLock { desired.configuration.mode } }
    /// The category options the app set.
    public var categoryOptions: CategoryOptions { lock.withLock { desired.configuration.options } }

    /// The token to give the app's own sound-server streams (`audiosession.token`), so that they join
    /// this session even when another process plays them.
    public var streamToken: String? {
        _ = try? ensureSession()
        return lock.withLock { token }
    }

    /// Registers the MPRIS player that speaks for this session (MediaPlayerKit registers its own), so
    /// that the bridge pauses and plays it as it does unmodified players; nil clears it. It is sent
    /// once the session exists on the bridge (registering never creates one), and again after the
    /// bridge restarts. An invalid name throws `BadParam` when there is a session to check it against.
    public func setNowPlayingPlayer(_ busName: String?) throws {
        if let path = lock.withLock({ sessionPath }) {
            _ = try link.call(path, BusContract.sessionInterface, "SetNowPlayingPlayer", [.string(busName ?? "")])
        }
        update { $0.nowPlayingPlayer = busName }
    }

    /// Whether system alerts (alarms, timers) may interrupt the session; see
    /// ``prefersNoInterruptionsFromSystemAlerts``.
    public func setPrefersNoInterruptionsFromSystemAlerts(_ inValue: Bool) throws {
        _ = try call("SetPrefersNoInterruptionsFromSystemAlerts", [.bool(inValue)])
        update { $0.prefersNoInterruptionsFromSystemAlerts = inValue }
    }

    // MARK: What the bridge says

    /// Posts a notification with the session as object, on the library's notification queue.
    private func post(_ name: Notification.Name, _ userInfo: [AnyHashable: Any]? = nil) {
        let info = userInfo.map(UserInfo.init)
        notifications.async { [self] in
            NotificationCenter.default.post(name: name, object: self, userInfo: info?.value)
        }
    }

    private struct UserInfo: @unchecked Sendable {
        let value: [AnyHashable: Any]
        init(_ value: [AnyHashable: Any]) { self.value = value }
    }

    private func signal(_ message: BusMessage) {
        guard message.path == lock.withLock({ sessionPath }) else { return }
        if message.interface == "org.freedesktop.DBus.Properties", message.member == "PropertiesChanged",
            message.arguments.first?.stringValue == BusContract.sessionInterface,
            let changed = message.arguments.dropFirst().first?.stringDictionary
        {
            propertiesChanged(changed)
            return
        }
        guard message.interface == BusContract.sessionInterface, let member = message.member else { return }
        let arguments = message.arguments
        switch member {
        case "Interruption":
            guard let type = arguments.first?.stringValue.flatMap(AudioSessionModel.InterruptionType.init(rawValue:)),
                let info = arguments.last?.stringDictionary
            else { return }
            let options = (try? InterruptionOptions.parse(info["options"]?.stringArray ?? [])) ?? []
            let reason = info["reason"]?.stringValue.flatMap(AudioSessionModel.InterruptionReason.init(rawValue:)) ?? .default
            let event = Interruption(type: InterruptionType(type), options: options, reason: InterruptionReason(reason),
                                     interrupter: info["interrupter"]?.stringValue)
            if type == .began { update { $0.active = false } }
            var userInfo: [AnyHashable: Any] = [AudioSessionInterruptionTypeKey: event.type.rawValue,
                                                AudioSessionInterruptionReasonKey: event.reason.rawValue]
            if type == .ended { userInfo[AudioSessionInterruptionOptionKey] = options.rawValue }
            post(Self.interruptionNotification, userInfo)
            lock.withLock { interruptionContinuations.values.forEach { $0.yield(event) } }
        case "RouteChange":
            guard let reason = arguments.first?.stringValue.flatMap(AudioSessionModel.RouteChangeReason.init(rawValue:)),
                let previous = arguments.last.flatMap(Codec.decodeRoute)
            else { return }
            let event = RouteChange(reason: RouteChangeReason(reason), previousRoute: AudioSessionRouteDescription(previous))
            post(Self.routeChangeNotification, [AudioSessionRouteChangeReasonKey: event.reason.rawValue,
                                               AudioSessionRouteChangePreviousRouteKey: event.previousRoute])
            lock.withLock { routeContinuations.values.forEach { $0.yield(event) } }
        case "SilenceSecondaryAudioHint":
            let type: SilenceSecondaryAudioHintType = arguments.first?.stringValue == "begin" ? .begin : .end
            post(Self.silenceSecondaryAudioHintNotification, [AudioSessionSilenceSecondaryAudioHintTypeKey: type.rawValue])
            lock.withLock { hintContinuations.values.forEach { $0.yield(type) } }
        case "ActivationGranted":
            granted()
        case "MediaServicesWereLost":
            mediaServices(.lost)
        case "MediaServicesWereReset":
            // The sound server came back; the session is still there but inactive: activate it again.
            notifications.async { [self] in
                if lock.withLock({ desired.active }), let path = try? ensureSession() {
                    _ = try? link.call(path, BusContract.sessionInterface, "SetActive", [.bool(true), .strings([])])
                }
            }
            mediaServices(.reset)
        default:
            break
        }
    }

    private func mediaServices(_ event: MediaServicesEvent) {
        post(event == .lost ? Self.mediaServicesWereLostNotification : Self.mediaServicesWereResetNotification)
        lock.withLock { mediaContinuations.values.forEach { $0.yield(event) } }
    }

    /// The bridge went away or came back (a restart of `audiosessiond`).
    private func bridgePresence(_ present: Bool) {
        if !present {
            let hadSession = lock.withLock { () -> Bool in
                defer { sessionPath = nil }
                return sessionPath != nil
            }
            if hadSession {
                lock.withLock { lostBridge = true }
                mediaServices(.lost)
            }
            return
        }
        guard lock.withLock({ lostBridge }) else { return }
        lock.withLock { lostBridge = false }
        // Re-create the session and apply everything again, off the library's loop thread.
        notifications.async { [self] in
            _ = try? ensureSession()
            mediaServices(.reset)
        }
    }
}

extension NSRecursiveLock {
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
