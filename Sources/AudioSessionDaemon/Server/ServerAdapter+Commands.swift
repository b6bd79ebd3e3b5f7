// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import PulseAudioClient

/// The adapter's hands: the engine's server commands, carried out on the server connection.
extension ServerAdapter {
    /// Executes an engine action that concerns the server; others are ignored. A failure is reported
    /// back to the engine as ``PolicyEvent/actionFailed(_:_:)``. Commands go out as soon as the context
    /// is ready, also while the server is still being read: effects decided on what the first answers
    /// brought (a stream adopted by a session made meanwhile) must reach the server too.
    public func execute(_ action: PolicyAction) {
        guard let context = commandContext else {
            if action.isServerCommand { report(action, PulseError(code: 1, operation: "no connection to the server")) }
            return
        }
        switch action {
        case .setStreamMute(let id, let mute, _):
            send(id.direction == .output ? .sinkInputMute(id.index, mute) : .sourceOutputMute(id.index, mute), action, to: id, context)
        case .setStreamVolume(let id, let volume, _):
            send(id.direction == .output ? .sinkInputVolume(id.index, volume.values) : .sourceOutputVolume(id.index, volume.values),
                 action, to: id, context)
        case .moveStream(let id, let device, _):
            move(id, to: device.index, context, completion(of: action))
        case .setDeviceVolume(let id, let volume, _):
            if id.direction == .output { context.setSinkVolume(id.index, volume.values, completion(of: action)) }
            else { context.setSourceVolume(id.index, volume.values, completion(of: action)) }
        case .setCardProfile(let card, let profile, _):
            context.setCardProfile(card, profile, completion(of: action))
        case .combineOutputs(let name, let outputs, _):
            let argument = "sink_name=\(name) slaves=\(outputs.joined(separator: ",")) "
                + "sink_properties=device.description=multiRoute"
            let done = completion(of: action)
            context.loadModule("module-combine-sink", argument: argument) { result in done(result.map { _ in }) }
        case .removeCombinedOutput(let name, _):
            removeCombinedOutputs(context) { $0 == name }
        case .rememberStreamLevels(let key, let levels, _):
            remember(key, levels, context: context, completion(of: action))
        default:
            break
        }
    }

    /// Sends a level command in one of the connection's numbered places (no allocation: the path of an
    /// interruption's first moves), or with a completion of its own when every place is taken.
    private func send(_ command: PulseLevelCommand, _ action: PolicyAction, to id: StreamID, _ context: PulseContext) {
        commandSent(to: id)
        let ledger = commandLedger
        do {
            let number = try context.send(command)
            ledger.sent()
            guard let number else {
                let done = completion(of: action)
                return context.send(command) { [unowned self] result in
                    done(result)
                    levelCommandAnswered(on: ledger)
                }
            }
            ledger.note(action, at: number)
        } catch {
            report(action, error)
        }
    }

    /// A command's completion: a failure is reported back to the engine as the action's.
    private func completion(of action: PolicyAction) -> PulseContext.Completion {
        { [unowned self] result in
            if case .failure(let error) = result { self.report(action, error) }
        }
    }

    /// Notes a command to a stream's levels in the connection's order, so that an answer older than it is known.
    private func commandSent(to id: StreamID) {
        order.commandSent(id.direction.streamFacility, id.index)
    }

    /// Moves a stream. pipewire-pulse takes a move to the default device as "follow the default"
    /// (it forgets the stream's target, as PulseAudio forgets its preferred device), and judges that by
    /// the default of the connection that asks. The bridge's long-lived connection can still name an
    /// old default (see ``DefaultDeviceCheck``): a move there to the old default would make the stream
    /// follow the new one, the device it was to leave. Such a move goes through a new connection of its
    /// own, which knows the default as it is.
    private func move(_ id: StreamID, to device: UInt32, _ context: PulseContext, _ done: @escaping PulseContext.Completion) {
        let output = id.direction == .output
        let name = output ? cache.sinks[device]?.name : cache.sources[device]?.name
        let connectionDefault = output ? connectionDefaults.sink : connectionDefaults.source
        let serverDefault = output ? cache.server?.defaultSinkName : cache.server?.defaultSourceName
        guard isPipeWire, let name, name == connectionDefault, name != serverDefault else {
            return Self.send(id, to: device, on: context, done)
        }
        let unreachable = PulseError(code: 1, operation: "no connection to the server for a move")
        let connection = ErrandConnection(loop: loop, server: server, name: "audiosessiond move", errand: { context, finished in
            Self.send(id, to: device, on: context) { result in
                done(result)
                finished()
            }
        }, ended: { [unowned self] connection, ran in
            if !ran { done(.failure(unreachable)) }
            moveConnections.removeAll { $0 === connection }
        })
        guard let connection else { return done(.failure(unreachable)) }
        moveConnections.append(connection)
    }

    private static func send(_ id: StreamID, to device: UInt32, on context: PulseContext, _ done: @escaping PulseContext.Completion) {
        if id.direction == .output { context.moveSinkInput(id.index, toSink: device, done) }
        else { context.moveSourceOutput(id.index, toSource: device, done) }
    }

    /// Ends the moves under way on connections of their own (the bridge stops or lost the server).
    func endMoveConnections() {
        let connections = moveConnections
        moveConnections = []
        connections.forEach { $0.end() }
    }

    /// Runs `body` once the server has processed every command sent so far (a round trip), or at
    /// once when there is no connection.
    public func afterPendingCommands(_ body: @escaping () -> Void) {
        guard let context = commandContext else { return body() }
        context.serverInfo { _ in body() }
    }

    /// The context commands go out on: ready, whether or not the server has been read completely.
    private var commandContext: PulseContext? { context?.state == .ready ? context : nil }

    func report(_ action: PolicyAction, _ error: PulseError) {
        onEvent(.actionFailed(action, AudioSessionError(.unspecified, error.description)))
    }

    /// Unloads the bridge's combined sinks (`module-combine-sink` with one of its names) whose name
    /// `matches`: one that a session no longer needs, or those a killed bridge left behind.
    func removeCombinedOutputs(_ context: PulseContext, matching matches: @escaping (String) -> Bool) {
        context.modules { result in
            for module in (try? result.get()) ?? [] where module.name == "module-combine-sink" {
                let name = module.argument.split(separator: " ").first { $0.hasPrefix("sink_name=") }?.dropFirst(10)
                if let name, name.hasPrefix(PolicyEngine.combinedOutputPrefix), matches(String(name)) {
                    context.unloadModule(module.index) { _ in }
                }
            }
        }
    }

    /// Unloads the combined sinks a killed bridge left behind: all but those in `keeping`.
    public func removeLeftoverCombinedOutputs(keeping: Set<String>) {
        guard let context = commandContext else { return }
        removeCombinedOutputs(context) { !keeping.contains($0) }
    }

    /// Rewrites the server's memory for a stream key with the user's levels (ext-stream-restore).
    private func remember(_ key: String, _ levels: StreamLevels, context: PulseContext,
                          _ done: @escaping PulseContext.Completion) {
        context.restoreEntries { result in
            switch result {
            case .failure(let error): done(.failure(error))
            case .success(let entries):
                let existing = entries.first { $0.name == key }
                let channels = existing?.channelNames.count == levels.volume.values.count
                    ? existing!.channelNames : Self.defaultChannelNames(levels.volume.values.count)
                let entry = PulseRestoreEntry(name: key, channelNames: channels, volume: levels.volume.values,
                                              device: existing?.device, mute: levels.mute)
                context.writeRestoreEntries([entry], done)
            }
        }
    }

    static func defaultChannelNames(_ count: Int) -> [String] {
        switch count {
        case 1: ["mono"]
        case 2: ["front-left", "front-right"]
        default: (0..<count).map { "aux\($0)" }
        }
    }
}
