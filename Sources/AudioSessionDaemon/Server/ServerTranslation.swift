// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import PulseAudioClient

/// Turns the server's descriptions into the engine's.
enum ServerTranslation {
    static func device(_ device: PulseDevice) -> DeviceInfo {
        DeviceInfo(
            id: DeviceID(device.direction, device.index), name: device.name,
            description: device.description,
            ports: device.ports.map {
                DevicePort(name: $0.name, description: $0.description,
                           availability: PortAvailability(rawValue: Int($0.available)) ?? .unknown,
                           serverType: ServerPortType(rawValue: Int($0.type)) ?? .unknown)
            },
            activePort: device.activePortName, properties: device.properties, channels: device.channelNames,
            sampleRate: Double(device.sampleRate), latency: Double(device.configuredLatency) / 1_000_000,
            volume: ChannelVolumes(device.volume), mute: device.mute, card: device.card,
            isMonitor: device.monitorOfSink != nil)
    }

    static func card(_ card: PulseCard) -> CardInfo {
        CardInfo(index: card.index, name: card.name,
                 profiles: card.profiles.map { CardInfo.Profile(name: $0.name, isAvailable: $0.available) },
                 activeProfile: card.activeProfileName)
    }

    /// The stream properties the bridge reads. A stream carries dozens; the cache keeps only these,
    /// which also spares the engine a change event when only others change.
    static let streamPropertyKeys: Set<String> = [
        "application.name", "application.process.binary", "application.id", "application.desktop",
        "pipewire.access.portal.app_id", "flatpak.app_id", "media.role", "audiosession.token",
        "module-stream-restore.id", "application.process.id", "pipewire.sec.pid", "media.name",
    ]

    /// The properties the bridge's stream queries read (``streamPropertyKeys`` and the mark of its
    /// own peak monitors): only those are made into strings, and only those are kept.
    static let streamKeysRead = Array(streamPropertyKeys) + [SoundWatch.marker]

    /// The process id of a stream or client: PipeWire's `pipewire.sec.pid` (which the server vouches
    /// for) where present, else the client-declared `application.process.id`.
    ///
    /// `relay` is the process PipeWire names for every client of the pulse protocol: pipewire-pulse
    /// connects to PipeWire for them, so their `pipewire.sec.pid` is its own. It vouches for no app.
    static func processID(_ properties: [String: String], relay: Int32? = nil) -> Int32? {
        vouchedProcessID(properties, relay: relay) ?? properties["application.process.id"].flatMap { Int32($0) }
    }

    /// The process the server vouches for (`pipewire.sec.pid`), unless it is `relay`.
    static func vouchedProcessID(_ properties: [String: String], relay: Int32? = nil) -> Int32? {
        guard let vouched = properties["pipewire.sec.pid"].flatMap({ Int32($0) }), vouched != relay else { return nil }
        return vouched
    }

    /// The engine's view of a stream, made by the app recognised for it (see ``AppRecognizer``).
    static func stream(_ stream: PulseStream, app: AppIdentity, process: ProcessFacts) -> StreamInfo {
        let p = stream.properties
        return StreamInfo(
            id: stream.id, app: app, role: p["media.role"],
            token: p["audiosession.token"], processChain: process.chain,
            device: DeviceID(stream.direction, stream.device), corked: stream.corked,
            mute: stream.mute, volume: ChannelVolumes(stream.volume), restoreKey: p["module-stream-restore.id"],
            mediaName: p["media.name"] ?? stream.name)
    }
}

/// Which way a server object goes, in the engine's words, and back: a sink input or a sink plays
/// (`output`), a source output or a source records (`input`).
extension Direction {
    /// The facility of a stream going this way.
    var streamFacility: PulseFacility { self == .output ? .sinkInput : .sourceOutput }
}

extension PulseStream {
    var direction: Direction { isSinkInput ? .output : .input }
    var id: StreamID { StreamID(direction, index) }
}

extension PulseDevice {
    var direction: Direction { isSink ? .output : .input }
    var facility: PulseFacility { isSink ? .sink : .source }
}
