// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import DBusKit
import Foundation
import Glibc

/// The app's MPRIS player: publishes one ``RemoteCommandCenter`` and one ``NowPlayingInfoCenter`` as
/// `org.mpris.MediaPlayer2.<app>.instance<pid>` while any command is offered or now-playing info is
/// set, and withdraws the name when neither is left. Calls from MPRIS clients run the command's
/// handlers on the center's ``RemoteCommandCenter/handlerQueue`` and are answered with their status.
public final class MPRISPlayer: @unchecked Sendable {
    /// The player of ``RemoteCommandCenter/shared()`` and ``NowPlayingInfoCenter/default()``, on the
    /// session bus, named after the program.
    public static let shared = MPRISPlayer(bus: .session, appID: ProcessInfo.processInfo.processName,
                                           audioSession: AudioSession.shared)

    /// The commands this player takes; MPRIS offers those that have an enabled target.
    public let commandCenter = RemoteCommandCenter()
    /// What this player publishes as its metadata and playback status.
    public let nowPlayingInfoCenter = NowPlayingInfoCenter()
    /// The app id the bus name is made from.
    public let appID: String
    /// `org.mpris.MediaPlayer2.<app id, sanitized>.instance<pid>`.
    public let busName: String
    /// The name desktop controls show (`Identity`): the app id unless set.
    public var identity: String {
        get { lock.withLock { storedIdentity } }
        set { lock.withLock { storedIdentity = newValue }; changed() }
    }
    /// The app's desktop file name without `.desktop` (`DesktopEntry`), if it has one.
    public var desktopEntry: String? {
        get { lock.withLock { storedDesktopEntry } }
        set { lock.withLock { storedDesktopEntry = newValue }; changed() }
    }
    /// How long a handler may take before its call is answered with `…Error.Timeout`.
    public var handlerTimeout: Duration = .seconds(5)
    /// The app's session, which the player is registered with while it is published
    /// (`SetNowPlayingPlayer`), so that the bridge pauses and plays the app through it on
    /// interruptions. The shared player's is `AudioSession.shared`; registering never creates a
    /// session on the bridge.
    public var audioSession: AudioSession? {
        get { lock.withLock { storedSession } }
        set {
            lock.withLock { storedSession = newValue }
            loop.perform { [self] in if published { register(busName) } }
        }
    }

    private let address: BusConnection.Address
    private let lock = NSLock()
    private var storedIdentity: String
    private var storedDesktopEntry: String?
    private var storedSession: AudioSession?
    /// Registrations with the session leave in order, off the loop thread (they wait for the bridge).
    private let registrations = DispatchQueue(label: "io.github.audiosession.mpris-registration")
    let loop = BusThreadLoop()
    private var started = false

    // Loop-thread state.
    private var connection: BusConnection?
    private var objects: ObjectServer?
    private var published = false
    private var offers = RemoteCommandOffers()
    private var nowPlaying = NowPlaying(info: nil, state: .unknown, setAt: Date())
    /// The player's properties as last published (`Position` is computed when read).
    private var lastProperties: [String: BusValue] = [:]
    private var trackKey = ""
    private var trackNumber = 0
    private let artwork = ArtworkFiles()

    /// A player on the bus at `busAddress` (for tests, or an app that talks to another bus).
    public convenience init(busAddress: String, appID: String) {
        self.init(bus: .address(busAddress), appID: appID)
    }

    init(bus: BusConnection.Address, appID: String, audioSession: AudioSession? = nil) {
        address = bus
        self.appID = appID
        storedSession = audioSession
        storedIdentity = appID
        busName = MPRISNames.busName(appID: appID, pid: getpid())
        commandCenter.onChange = { [unowned self] in changed() }
        nowPlayingInfoCenter.onChange = { [unowned self] in changed() }
    }

    /// The MPRIS track id of the current item.
    var trackID: String { "/io/github/audiosession/track/\(trackNumber)" }

    /// Something the player shows changed: bring the bus up to date on the loop thread.
    private func changed() {
        let start = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        if start { loop.start() }
        let offers = commandCenter.offers
        let nowPlaying = nowPlayingInfoCenter.snapshot
        loop.perform { [self] in update(offers, nowPlaying) }
    }

    // MARK: Loop thread

    private func update(_ offers: RemoteCommandOffers, _ nowPlaying: NowPlaying) {
        let predicted = MPRISRules.position(self.nowPlaying, at: Date())
        let track = trackNumber
        self.offers = offers
        self.nowPlaying = nowPlaying
        noteTrack()
        let wanted = !offers.isEmpty || nowPlaying.info != nil
        if wanted && !published { publish() } else if !wanted && published { withdraw() }
        guard published, let objects else { return }
        let properties = playerProperties()
        let changed = properties.filter { $0.key != "Position" && lastProperties[$0.key] != $0.value }
        lastProperties = properties
        objects.emitPropertiesChanged(path: MPRISNames.path, interface: MPRISNames.playerInterface,
                                      changed: changed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        // A jump within the same track (a new track is told by its metadata).
        let position = MPRISRules.position(nowPlaying, at: Date())
        if track == trackNumber, abs(position - predicted) > 1_000_000 {
            objects.emitSignal(path: MPRISNames.path, interface: MPRISNames.playerInterface, member: "Seeked",
                               [.int64(position)])
        }
    }

    /// A new track id when the item's title, artist, album or length changes.
    private func noteTrack() {
        let info = nowPlaying.info
        let key = [MediaItemPropertyTitle, MediaItemPropertyArtist, MediaItemPropertyAlbumTitle, MediaItemPropertyPlaybackDuration]
            .map { info?[$0].map { "\($0)" } ?? "" }.joined(separator: "\u{1F}")
        if key != trackKey {
            trackKey = key
            trackNumber += 1
        }
    }

    private func publish() {
        do {
            let connection = try self.connection ?? BusConnection(address)
            if self.connection == nil {
                connection.attach(to: loop)
                self.connection = connection
                objects = ObjectServer(connection: connection)
            }
            objects?.export(path: MPRISNames.path, interfaces: [rootInterface(), playerInterface()])
            guard try connection.requestName(busName) else {
                report("the bus name \(busName) is taken; the player is not published")
                return
            }
            published = true
            lastProperties = playerProperties()
            register(busName)
        } catch {
            report("the player could not be published on the bus: \(error)")
        }
    }

    private func withdraw() {
        published = false
        register(nil)
        objects?.unexport(path: MPRISNames.path)
        connection?.call(.methodCall(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.name,
                                     member: "ReleaseName", [.string(busName)])) { _ in }
    }

    /// Tells the app's session which player speaks for it (nil: none).
    private func register(_ name: String?) {
        guard let session = audioSession else { return }
        registrations.async {
            do { try session.setNowPlayingPlayer(name) } catch { self.report("the player could not be registered with the session: \(error)") }
        }
    }

    private func playerProperties() -> [String: BusValue] {
        let artURL = (nowPlaying.info?[MediaItemPropertyArtwork] as? MediaItemArtwork).flatMap(artwork.url(for:))
        let rates = offers.changeRate ? offers.rates : [1]
        return [
            "PlaybackStatus": .string(MPRISRules.playbackStatus(nowPlaying)),
            "Rate": .double(MPRISRules.rate(nowPlaying)),
            "Metadata": .vardict(MPRISRules.metadata(nowPlaying, trackID: trackID, artURL: artURL)),
            "Position": .int64(MPRISRules.position(nowPlaying, at: Date())),
            "Volume": .double(1),
            "MinimumRate": .double(rates.min() ?? 1),
            "MaximumRate": .double(rates.max() ?? 1),
            "CanGoNext": .bool(offers.next),
            "CanGoPrevious": .bool(offers.previous),
            "CanPlay": .bool(MPRISRules.canPlay(offers)),
            "CanPause": .bool(MPRISRules.canPause(offers)),
            "CanSeek": .bool(MPRISRules.canSeek(offers)),
            "CanControl": .bool(true),
        ]
    }

    private func rootInterface() -> ExportedInterface {
        let fixed: [String: BusValue] = [
            "CanQuit": .bool(false), "CanRaise": .bool(false), "HasTrackList": .bool(false),
            "SupportedUriSchemes": .strings([]), "SupportedMimeTypes": .strings([]),
        ]
        var properties = fixed.mapValues { value in ExportedProperty(value.signature, get: { value }) }
        properties["Identity"] = ExportedProperty("s", get: { [unowned self] in .string(identity) })
        properties["DesktopEntry"] = ExportedProperty("s", get: { [unowned self] in .string(desktopEntry ?? "") })
        let notSupported: ExportedMethod = ExportedMethod("") { _ in
            .error(BusError(name: MPRISNames.errorPrefix + "NotSupported", message: "this player cannot be raised or quit"))
        }
        return ExportedInterface(name: MPRISNames.rootInterface, methods: ["Raise": notSupported, "Quit": notSupported],
                                 properties: properties, introspectionXML: MPRISIntrospection.root)
    }

    private func playerInterface() -> ExportedInterface {
        func method(_ signature: String, _ request: @escaping (MethodCall) -> MPRISRequest?) -> ExportedMethod {
            ExportedMethod(signature) { [unowned self] call in
                guard let request = request(call) else { return .error(.invalidArgs("bad arguments")) }
                return perform(request, answering: call.message)
            }
        }
        // Reads answer from the values ``update(_:_:)`` keeps; only the position moves between updates.
        var properties: [String: ExportedProperty] = [:]
        for (name, value) in playerProperties() {
            properties[name] = ExportedProperty(value.signature, get: { [unowned self] in
                name == "Position" ? .int64(MPRISRules.position(nowPlaying, at: Date())) : lastProperties[name] ?? value
            })
        }
        properties["Rate"]?.set = { [unowned self] value, _ in
            guard let rate = value.doubleValue else { return .invalidArgs("Rate is a double") }
            _ = perform(.setRate(rate), answering: nil)
            return nil
        }
        let openUri = ExportedMethod("s") { _ in
            .error(BusError(name: MPRISNames.errorPrefix + "NotSupported", message: "this player opens no URIs"))
        }
        return ExportedInterface(
            name: MPRISNames.playerInterface,
            methods: [
                "Play": method("") { _ in .play }, "Pause": method("") { _ in .pause },
                "PlayPause": method("") { _ in .playPause }, "Stop": method("") { _ in .stop },
                "Next": method("") { _ in .next }, "Previous": method("") { _ in .previous },
                "Seek": method("x") { call in call.arguments.first.flatMap(Self.int64).map(MPRISRequest.seek) },
                "SetPosition": method("ox") { call in
                    guard case .objectPath(let track)? = call.arguments.first, let position = call.arguments.last.flatMap(Self.int64)
                    else { return nil }
                    return .setPosition(track: track, position)
                },
                "OpenUri": openUri,
            ],
            properties: properties, introspectionXML: MPRISIntrospection.player)
    }

    private static func int64(_ value: BusValue) -> Int64? {
        if case .int64(let number) = value { return number }
        return nil
    }

    /// Runs the command a request reaches on the handler queue; answers `message` (if any) with its
    /// status, or with `Timeout` when the handler takes longer than ``handlerTimeout``.
    private func perform(_ request: MPRISRequest, answering message: BusMessage?) -> MethodResult {
        let choice = MPRISRules.choose(request, offers: offers, status: MPRISRules.playbackStatus(nowPlaying),
                                       position: MPRISRules.position(nowPlaying, at: Date()), trackID: trackID,
                                       duration: MPRISRules.duration(nowPlaying))
        let center = commandCenter
        let event: RemoteCommandEvent
        switch choice {
        case .refused(let command):
            return .error(BusError(name: MPRISNames.errorPrefix + "CommandNotAvailable",
                                   message: "the \(command) command is disabled or has no target"))
        case .ignored: return .reply([])
        case .play: event = center.playCommand.makeEvent()
        case .pause: event = center.pauseCommand.makeEvent()
        case .togglePlayPause: event = center.togglePlayPauseCommand.makeEvent()
        case .stop: event = center.stopCommand.makeEvent()
        case .next: event = center.nextTrackCommand.makeEvent()
        case .previous: event = center.previousTrackCommand.makeEvent()
        case .skipForward(let seconds): event = SkipIntervalCommandEvent(command: center.skipForwardCommand, interval: seconds)
        case .skipBackward(let seconds): event = SkipIntervalCommandEvent(command: center.skipBackwardCommand, interval: seconds)
        case .changePosition(let seconds):
            event = ChangePlaybackPositionCommandEvent(command: center.changePlaybackPositionCommand, positionTime: seconds)
        case .changeRate(let rate):
            event = ChangePlaybackRateCommandEvent(command: center.changePlaybackRateCommand, playbackRate: Float(rate))
        }
        let answer = OnceAnswer(message: message, objects: objects)
        answer.timer = loop.addTimer { [answer] in
            answer.send(.error(BusError(name: MPRISNames.errorPrefix + "Timeout", message: "the app did not answer in time")))
        }
        answer.timer?.arm(after: handlerTimeout)
        center.handlerQueue.async { [loop] in
            let status = event.command.run(event)
            loop.perform {
                if let error = status.errorName {
                    answer.send(.error(BusError(name: error, message: "the app answered \(status)")))
                } else {
                    answer.send(.reply([]))
                }
            }
        }
        return message == nil ? .reply([]) : .later
    }

    private func report(_ message: String) {
        FileHandle.standardError.write(Data("MediaPlayerKit: \(message)\n".utf8))
    }
}

/// A call's answer, sent once: by the handler's status or by the timeout, whichever comes first
/// (loop thread).
private final class OnceAnswer: @unchecked Sendable {
    private var message: BusMessage?
    private let objects: ObjectServer?
    /// Answers with `Timeout` unless the handler answers first.
    var timer: (any BusLoopTimer)?
    init(message: BusMessage?, objects: ObjectServer?) {
        self.message = message
        self.objects = objects
    }
    func send(_ result: MethodResult) {
        timer?.cancel()
        timer = nil
        guard let message else { return }
        self.message = nil
        objects?.reply(to: message, result)
    }
}
