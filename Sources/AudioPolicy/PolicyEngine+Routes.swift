// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    // MARK: Devices

    mutating func serverInfo(name: String, version: String, defaultOutput: String?, defaultInput: String?) {
        serverName = name
        serverVersion = version
        let changed = defaultDeviceName[.output] != defaultOutput || defaultDeviceName[.input] != defaultInput
        if let from = device(named: defaultDeviceName[.output])?.id, let to = device(named: defaultOutput)?.id, from != to {
            defaultOutputChange = (from, to, now + settings.defaultOutputFollowWindow)
        }
        defaultDeviceName[.output] = defaultOutput
        defaultDeviceName[.input] = defaultInput
        guard changed else { return }
        emit(.record(.defaultDevices(output: defaultOutput, input: defaultInput)))
        avoidAirPlayDefault()
        reportAllRoutes(cause: .defaultChanged)
    }

    mutating func deviceAppeared(_ info: DeviceInfo) {
        if devices[info.id] != nil {
            deviceChanged(info)
            return
        }
        devices[info.id] = info
        deviceByName[info.name] = info.id
        portAppearedAt[info.uid] = eventSerial
        emit(.record(.deviceAdded(info.id, info.portDescription)))
        noteServerPolicy(of: info, present: true)
        if Self.isCombinedOutput(info) {
            combinedOutputAppeared(info)
        } else if info.id.direction == .output {
            refreshAllMultiRoutes()
        }
        reportAllRoutes(cause: .deviceAdded)
    }

    mutating func deviceChanged(_ info: DeviceInfo) {
        guard let old = devices[info.id] else {
            deviceAppeared(info)
            return
        }
        devices[info.id] = info
        if old.isRoleBasedTarget != info.isRoleBasedTarget { noteServerPolicy(of: info, present: true) }
        if old.name != info.name {
            deviceByName[old.name] = nil
            deviceByName[info.name] = info.id
        }
        if old.uid != info.uid || old.ports != info.ports || old.properties != info.properties {
            emit(.record(.deviceChanged(info.id, info.portDescription)))
        }
        for port in info.ports where port.availability == .yes {
            if old.ports.first(where: { $0.name == port.name })?.availability != .yes {
                portAppearedAt["\(info.name):\(port.name)"] = eventSerial
            }
        }
        if info.id.direction == .input && old.mute != info.mute {
            emit(.record(.deviceMute(info.id, info.portDescription, muted: info.mute)))
            if info.mute {
                for id in sessions.keys.sorted() { checkMicrophoneMuted(id) }
            } else {
                microphoneUnmuted(info.id)
            }
        }
        if old.uid != info.uid {
            let oldPortGone = old.activePort.map { name in
                info.ports.first { $0.name == name }?.availability == .no
            } ?? false
            reportAllRoutes(cause: oldPortGone ? .portUnavailable : .deviceAdded)
        } else if old.portDescription != info.portDescription || old.sampleRate != info.sampleRate {
            reportAllRoutes(cause: .streamChange)
        }
    }

    mutating func deviceVanished(_ id: DeviceID) {
        guard let info = devices[id] else { return }  // a remove for a device never seen
        devices[id] = nil
        if deviceByName[info.name] == id { deviceByName[info.name] = nil }
        emit(.record(.deviceRemoved(id, info.portDescription)))
        noteServerPolicy(of: info, present: false)
        for streamID in streams.keys where streams[streamID]?.info.device == id {
            streams[streamID]?.deviceLost = true
        }
        if info.id.direction == .input { microphoneUnmuted(id) }
        if info.id.direction == .output && !Self.isCombinedOutput(info) { refreshAllMultiRoutes() }
        for sessionID in sessions.keys.sorted() where sessions[sessionID]?.drivesPlayer == true {
            pauseOnPersonalOutputLost(sessionID, removed: info)
        }
        reportAllRoutes(cause: .deviceRemoved(bluetoothAddress: info.bluetoothAddress), removed: info)
    }

    /// The privacy rule: a policy that asks for it pauses its player when its personal output vanishes.
    /// A player the bridge paused for an interruption stays paused when it ends: had it been playing,
    /// the unplug would have paused it (so would WirePlumber 0.5.11 and later, which pauses MPRIS
    /// players itself), and playing it again would put the user's audio on the speakers.
    mutating func pauseOnPersonalOutputLost(_ id: SessionID, removed: DeviceInfo) {
        guard let session = sessions[id], session.policy.whenOutputRemoved == .pause, session.drivesPlayer,
            removed.id.direction == .output, removed.portDescription.portType.isPersonal,
            session.reportedRoute.outputs.contains(where: { $0.uid == removed.uid })
        else { return }
        if session.playingOutputs > 0 {
            emit(.pausePlayer(id, why: "its output \(removed.portDescription.portType.rawValue) '\(removed.description)' was removed"))
        } else if session.pausedPlayer {
            sessions[id]?.pausedPlayer = false
        }
    }

    func device(named name: String?) -> DeviceInfo? {
        name.flatMap { deviceByName[$0] }.flatMap { devices[$0] }
    }

    func device(withUID uid: String, _ direction: Direction) -> DeviceInfo? {
        devices.values.first { $0.id.direction == direction && ($0.uid == uid || $0.name == uid) }
    }

    /// Where the server sends a stream whose device is gone: the default, else any other device.
    func fallbackDevice(_ direction: Direction) -> DeviceID? {
        if let device = device(named: defaultDeviceName[direction]) { return device.id }
        return devices.values.filter { $0.id.direction == direction && !$0.isMonitor }.map(\.id).min()
    }

    /// The device a session's new streams should use, when it prefers one over the default.
    func preferredDevice(of session: Session, _ direction: Direction) -> DeviceID? {
        switch direction {
        case .output:
            if session.configuration.category == .multiRoute, let combined = combinedDevice(of: session.id) {
                return combined.id
            }
            if let avoiding = outputAvoidingAirPlay(for: session), session.outputOverride != .speaker { return avoiding }
            guard session.outputOverride == .speaker || (session.configuration.options.contains(.defaultToSpeaker)
                && device(named: defaultDeviceName[.output])?.portDescription.portType == .receiver)
            else { return nil }
            return devices.values.filter { $0.id.direction == .output && $0.portDescription.portType == .speaker }
                .map(\.id).min()
        case .input:
            return session.preferredInput.flatMap { device(withUID: $0, .input) }?.id
        }
    }

    /// Asks the server to move a stream, remembering the move so that its report is not taken for the user's.
    mutating func move(_ streamID: StreamID, to device: DeviceID, cause: RouteCause, why: String) {
        guard let stream = streams[streamID], stream.effectiveDevice != device else { return }
        streams[streamID]?.expectedMove = TrackedStream.ExpectedMove(device: device, cause: cause)
        emit(.record(.effect("move", stream: streamID, session: stream.session, why: why)))
        emit(.moveStream(streamID, to: device, why: why))
    }

    mutating func moveToPreferredDevice(_ streamID: StreamID, why: String) {
        guard let stream = streams[streamID], let sessionID = stream.session, let session = sessions[sessionID],
            let target = preferredDevice(of: session, streamID.direction)
        else { return }
        move(streamID, to: target, cause: .override, why: why)
    }

    /// Moves a session's streams where its preferences say, or back to the default when it has none.
    mutating func moveStreamsToPreferredDevices(of id: SessionID, why: String) {
        guard let session = sessions[id] else { return }
        for streamID in session.streamIDs.sorted() {
            let target = preferredDevice(of: session, streamID.direction)
                ?? device(named: defaultDeviceName[streamID.direction])?.id
            if let target { move(streamID, to: target, cause: .override, why: why) }
        }
    }

    // MARK: Routes

    /// The devices a session uses in one direction: those of its streams, else the default (or its
    /// preference) when the category uses that direction.
    func routeDevices(of session: Session, _ direction: Direction) -> [DeviceID] {
        var result: [DeviceID] = []
        for streamID in session.streamIDs.sorted() where streamID.direction == direction {
            guard let stream = streams[streamID] else { continue }
            let device = stream.deviceLost || stream.effectiveDevice.map({ devices[$0] == nil }) ?? true
                ? fallbackDevice(direction) : stream.effectiveDevice
            if let device, !result.contains(device) { result.append(device) }
        }
        if result.isEmpty {
            let uses = direction == .output
                ? session.configuration.category.hasOutput : session.configuration.category.hasInput
            if uses, let device = preferredDevice(of: session, direction) ?? fallbackDevice(direction) {
                result.append(device)
            }
        }
        return result
    }

    func computeRoute(_ session: Session) -> RouteDescription {
        var outputs: [PortDescription] = []
        if session.configuration.category == .multiRoute {
            outputs = multiRouteOutputs().map(\.portDescription)  // every output, when there are several
        }
        if outputs.count < 2 { outputs = routeDevices(of: session, .output).compactMap { devices[$0]?.portDescription } }
        return RouteDescription(
            inputs: routeDevices(of: session, .input).compactMap { devices[$0]?.portDescription }, outputs: outputs)
    }

    mutating func reportAllRoutes(cause: RouteCause, removed: DeviceInfo? = nil) {
        for id in sessions.keys.sorted() { reportRoute(of: id, cause: cause, removed: removed) }
    }

    /// Compares a session's route with the one last reported and reports the change with its reason.
    mutating func reportRoute(of id: SessionID, cause: RouteCause, removed: DeviceInfo? = nil) {
        // While the server is being read again after a loss, routes are compared once, at the reset.
        guard isServerConnected, var session = sessions[id] else { return }
        let route = computeRoute(session)
        let previous = session.reportedRoute
        if cause != .categoryChange && route == previous { return }
        if session.routeHold != nil { return }  // reported once the Bluetooth window closes
        if let settle = session.routeSettleUntil, now < settle,
            Self.isFollowUp(cause) || ((cause == .userMove || cause == .orphanLanded) && Self.consolidates(route, previous))
        {
            session.reportedRoute = route
            sessions[id] = session
            return
        }
        var reason: RouteChangeReason
        switch cause {
        case .categoryChange: reason = .categoryChange
        case .override: reason = .override
        case .deviceRemoved(let address):
            if let address, let removed, previous.outputs.contains(where: { $0.uid == removed.uid })
                || previous.inputs.contains(where: { $0.uid == removed.uid })
            {
                session.routeHold = RouteHold(deadline: now + settings.bluetoothReappearanceWindow,
                                              bluetoothAddress: address)
                sessions[id] = session
                timedSessions.insert(id)
                return
            }
            reason = .oldDeviceUnavailable
        case .portUnavailable: reason = .oldDeviceUnavailable
        case .orphanLanded:
            reason = containsFreshPort(route, since: session.lastRouteReport) ? .newDeviceAvailable : .oldDeviceUnavailable
        case .deviceAdded, .defaultChanged, .userMove, .streamChange, .wake:
            reason = containsFreshPort(route, since: session.lastRouteReport) ? .newDeviceAvailable
                : .routeConfigurationChange
        }
        if let end = wakeWindowEnd, now < end, cause != .categoryChange, cause != .override { reason = .wakeFromSleep }
        if cause != .categoryChange && lacksRequiredDevice(route, session.configuration.category) {
            reason = .noSuitableRouteForCategory
        }
        announce(&session, reason: reason, route: route, cause: cause)
    }

    /// Changes that the server makes as a consequence of the one just reported (streams landing on
    /// their new device, the default following a removal), which are folded into that report.
    private static func isFollowUp(_ cause: RouteCause) -> Bool {
        switch cause {
        case .streamChange, .defaultChanged: true
        default: false
        }
    }

    /// Whether a move only gathers streams on ports the route already reported (the rest of a
    /// session's streams following the first one); a move to another port is news.
    private static func consolidates(_ route: RouteDescription, _ reported: RouteDescription) -> Bool {
        Set((route.outputs + route.inputs).map(\.uid)).isSubset(of: Set((reported.outputs + reported.inputs).map(\.uid)))
    }

    /// Whether a report of this cause opens a window for follow-up changes: only changes that the
    /// server follows up on its own (removals, new devices, default changes, moves).
    private static func opensSettleWindow(_ cause: RouteCause) -> Bool {
        cause != .categoryChange && cause != .override
    }

    mutating func announce(_ session: inout Session, reason: RouteChangeReason, route: RouteDescription,
                                   cause: RouteCause) {
        let previous = session.reportedRoute
        session.reportedRoute = route
        session.lastRouteReport = eventSerial
        session.routeSettleUntil = Self.opensSettleWindow(cause) ? now + settings.routeSettleWindow : nil
        sessions[session.id] = session
        emit(.routeChange(session.id, reason, previous: previous, current: route))
    }

    /// The Bluetooth window closed: one report, a configuration change if the device came back.
    mutating func endRouteHold(_ id: SessionID) {
        guard var session = sessions[id], let hold = session.routeHold else { return }
        session.routeHold = nil
        let route = computeRoute(session)
        guard route != session.reportedRoute else {
            sessions[id] = session
            return
        }
        // The headset is there when the window closes (a profile switch), or gone (it may have come back
        // in its other profile and gone again, as when it disconnects right after a switch).
        let present = devices.values.contains { $0.bluetoothAddress == hold.bluetoothAddress }
        var reason: RouteChangeReason = present ? .routeConfigurationChange : .oldDeviceUnavailable
        if lacksRequiredDevice(route, session.configuration.category) { reason = .noSuitableRouteForCategory }
        announce(&session, reason: reason, route: route, cause: .deviceRemoved(bluetoothAddress: hold.bluetoothAddress))
        if !present { callRouteDisconnected(id) }
    }

    /// Whether the route holds a port that appeared after the session's last report.
    func containsFreshPort(_ route: RouteDescription, since serial: UInt64) -> Bool {
        (route.outputs + route.inputs).contains { port in
            portAppearedAt[port.uid].map { $0 > serial } ?? false
        }
    }

    func lacksRequiredDevice(_ route: RouteDescription, _ category: SessionCategory) -> Bool {
        (category.hasOutput && route.outputs.isEmpty) || (category.hasInput && route.inputs.isEmpty)
    }

    // MARK: Sleep and server loss

    mutating func wake() {
        isAsleep = false
        wakeWindowEnd = now + settings.wakeWindow
        reportAllRoutes(cause: .wake)
    }

    /// The server went away: every session is told and becomes inactive; what was on the server is gone.
    mutating func serverLost() {
        guard isServerConnected else { return }
        isServerConnected = false
        emit(.record(.serverLost(server: serverName)))
        for id in sessions.keys.sorted() {
            sessions[id]?.isActive = false
            sessions[id]?.interrupters = []
            sessions[id]?.autoDeactivateAt = nil
            sessions[id]?.routeHold = nil
            sessions[id]?.profileSwitch = nil
            sessions[id]?.matchedBluetoothOutput = nil
            emit(.mediaServicesLost(id))
        }
        duckingSessions = []
        combinedOutputs = [:]  // the server's modules went with it
        for id in streams.keys.sorted() {
            guard let stream = streams[id] else { continue }
            if stream.journaled != nil { emit(.journalClear(id)) }
            if stream.touched, let key = stream.info.restoreKey {
                emit(.rememberStreamLevels(restoreKey: key, stream.user,
                                           why: "the server went away while the bridge had changed \(id)"))
            }
        }
        streams = [:]
        playingOutputCount = 0
        for id in sessions.keys.sorted() {
            sessions[id]?.streamIDs = []
            sessions[id]?.playingOutputs = 0
            sessions[id]?.runningStreams = 0
        }
        devices = [:]
        deviceByName = [:]
        cards = [:]
        for id in sessions.keys.sorted() where sessions[id]?.kind == .policy { releaseSession(id) }
    }

    /// The server is back and was read again: sessions are told to set themselves up again. A route
    /// that differs from the one reported before the loss changed while no one could see why: it is
    /// reported with `unknown`, after the reset.
    mutating func serverReset() {
        isServerConnected = true
        emit(.record(.serverReset(server: serverName)))
        refreshAllMultiRoutes()
        for id in sessions.keys.sorted() {
            emit(.mediaServicesReset(id))
            guard var session = sessions[id] else { continue }
            let route = computeRoute(session)
            if route != session.reportedRoute && session.kind == .explicit {
                // (A cause that opens no settle window: the report stands alone.)
                announce(&session, reason: .unknown, route: route, cause: .override)
            } else {
                sessions[id]?.reportedRoute = route
            }
        }
    }
}
