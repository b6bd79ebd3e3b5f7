// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import Glibc
import PulseAudioClient

/// What the server reported, taken into the cache and handed to the engine as events: objects that
/// arrived or changed (a late answer about an object removed since is dropped) and objects removed.
extension ServerAdapter {
    /// The server removed an object: it leaves the cache, and the engine hears of it if it was known.
    func removed(_ facility: PulseFacility, _ index: UInt32) {
        let known = cache.remove(facility, index)
        guard known else { return }  // a remove for an object never seen is ignored
        switch facility {
        case .sink: onEvent(.deviceVanished(DeviceID(.output, index)))
        case .source: onEvent(.deviceVanished(DeviceID(.input, index)))
        case .sinkInput, .sourceOutput:
            let id = StreamID(facility == .sinkInput ? .output : .input, index)
            streamProcesses[id] = nil
            onEvent(.streamVanished(id))
        case .card: onEvent(.cardVanished(index))
        case .client: clientProcesses[index] = nil
        case .server: break
        }
    }

    /// Whether the server is pipewire-pulse, whose defaults come from ``DefaultDeviceCheck``.
    var isPipeWire: Bool { cache.server?.name.containsASCII("PipeWire") == true }

    func checkDefaultsOnPipeWire() {
        if isPipeWire { defaultsCheck.request() }
    }

    /// The server's information from the bridge's connection. On PipeWire its defaults are taken only
    /// when the connection is new (the cache is empty then); after that they come from
    /// ``defaultsChecked(_:)``.
    func serverInfoReported(_ reported: PulseServerInfo) {
        connectionDefaults = (reported.defaultSinkName, reported.defaultSourceName)
        guard isPipeWire, let known = cache.server else { return serverInfoArrived(reported) }
        var info = reported
        info.defaultSinkName = known.defaultSinkName
        info.defaultSourceName = known.defaultSourceName
        serverInfoArrived(info)
        defaultsCheck.request()
    }

    /// The defaults as a new connection read them.
    func defaultsChecked(_ checked: PulseServerInfo) {
        guard isConnected, var info = cache.server else { return }
        info.defaultSinkName = checked.defaultSinkName
        info.defaultSourceName = checked.defaultSourceName
        serverInfoArrived(info)
    }

    func serverInfoArrived(_ info: PulseServerInfo) {
        let changed = cache.server != info
        cache.server = info
        if changed {
            onEvent(.serverInfo(name: info.name, version: info.version, defaultOutput: info.defaultSinkName,
                                defaultInput: info.defaultSourceName))
        }
    }

    func deviceArrived(_ device: PulseDevice, askedAt: UInt64) {
        let facility = device.facility
        guard !order.isStale(facility, device.index, askedAt: askedAt) else { return }
        let previous = device.isSink ? cache.sinks[device.index] : cache.sources[device.index]
        if device.isSink { cache.sinks[device.index] = device } else { cache.sources[device.index] = device }
        guard previous != device else { return }
        if previous == nil { checkDefaultsOnPipeWire() }
        let info = ServerTranslation.device(device)
        onEvent(previous == nil ? .deviceAppeared(info) : .deviceChanged(info))
    }

    func cardArrived(_ card: PulseCard, askedAt: UInt64) {
        guard !order.isStale(.card, card.index, askedAt: askedAt) else { return }
        let previous = cache.cards[card.index]
        cache.cards[card.index] = card
        guard previous != card else { return }
        onEvent(previous == nil ? .cardAppeared(ServerTranslation.card(card)) : .cardChanged(ServerTranslation.card(card)))
    }

    func clientArrived(_ client: PulseClientInfo, askedAt: UInt64) {
        guard !order.isStale(.client, client.index, askedAt: askedAt) else { return }
        cache.clients[client.index] = client
        if let pid = ServerTranslation.processID(client.properties, relay: relayPID), clientProcesses[client.index]?.pid != pid {
            clientProcesses[client.index] = ProcessFacts.read(client.properties, relay: relayPID)
        }
    }

    /// Learns ``relayPID`` from the client of `connection` among `clients` (a list of every client): on
    /// pipewire-pulse the `pipewire.sec.pid` of the bridge's own client is not the bridge's process but
    /// the one in between. Without one (PulseAudio), there is none: a server started since leaves no
    /// relay of the one before.
    func learnRelay(from clients: [PulseClientInfo], of connection: PulseContext) {
        let own = connection.clientIndex
        let vouched = clients.first { $0.index == own }.flatMap { ServerTranslation.vouchedProcessID($0.properties) }
        relayPID = vouched == getpid() ? nil : vouched
    }

    /// A stream read with ``ServerTranslation/streamKeysRead``.
    func streamArrived(_ stream: PulseStream, askedAt: UInt64) {
        // The bridge's own peak monitors are not apps.
        guard stream.properties[SoundWatch.marker] == nil else { return }
        let facility = stream.direction.streamFacility
        guard !order.isStale(facility, stream.index, askedAt: askedAt) else { return }
        let previous = stream.isSinkInput ? cache.sinkInputs[stream.index] : cache.sourceOutputs[stream.index]
        if stream.isSinkInput { cache.sinkInputs[stream.index] = stream } else { cache.sourceOutputs[stream.index] = stream }
        // Streams that belong to a module (loopbacks, filters) have no client and are not apps.
        guard previous != stream, stream.client != nil else { return }
        // A stream that moved may have followed a new default. One that gets its first device (every
        // new stream on PipeWire) did not move: a check then would open a connection to the server
        // just as a call's first moves go out.
        if let previous, previous.device != stream.device, previous.device != PulseStream.noDevice { checkDefaultsOnPipeWire() }
        let process = process(of: stream)
        var info = ServerTranslation.stream(stream, app: app(of: stream, process: process), process: process)
        info.levelsPrecedeLastCommand = order.commandFollowed(facility, stream.index, askedAt: askedAt)
        info.answersMayPrecedeCommands = isPipeWire
        // pipewire-pulse announces a new stream before it has the node's levels, at zero volume (also in
        // the reading after connecting, for a stream that has just started): its next report has them.
        info.levelsNotYetKnown = isPipeWire && previous == nil && info.volume.values.allSatisfy { $0 == 0 }
        onEvent(previous == nil ? .streamAppeared(info) : .streamChanged(info))
    }

    /// The stream's process: its client's when the stream names the client's process or none (a
    /// native PipeWire node names none; its client does), else read from `/proc` when the stream
    /// appears (or names another process), never on every change of its volume or state.
    func process(of stream: PulseStream) -> ProcessFacts {
        let id = stream.id
        let pid = ServerTranslation.processID(stream.properties, relay: relayPID)
        if let client = stream.client.flatMap({ clientProcesses[$0] }), pid == nil || client.pid == pid { return client }
        if let known = streamProcesses[id], known.pid == pid { return known }
        let facts = ProcessFacts.read(stream.properties, relay: relayPID)
        streamProcesses[id] = facts
        return facts
    }

    /// The app of a stream, from its properties, its client's and its process.
    func app(of stream: PulseStream, process: ProcessFacts) -> AppIdentity {
        let client = stream.client.flatMap { cache.clients[$0]?.properties } ?? [:]
        return recognizer.identity(stream: stream.properties, client: client, process: process)
    }
}
