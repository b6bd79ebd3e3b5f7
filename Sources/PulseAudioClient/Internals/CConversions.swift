// SPDX-License-Identifier: Apache-2.0
import CPulse

/// Conversions from libpulse's C structures, each in one place.
enum CConversion {
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

    static func index(_ value: UInt32) -> UInt32? { value == cpulse_invalid_index() ? nil : value }

    /// `pa_cvolume` → one value per channel (`cpulse_cvolume_value`).
    static func volume(_ cvolume: pa_cvolume) -> [UInt32] {
        withUnsafePointer(to: cvolume) { pointer in
            (0..<Int(cvolume.channels)).map { cpulse_cvolume_value(pointer, UInt32($0)) }
        }
    }

    /// One value per channel → `pa_cvolume` (`cpulse_cvolume_set_value`).
    static func cvolume(_ values: [UInt32]) -> pa_cvolume {
        var cvolume = pa_cvolume()
        cvolume.channels = UInt8(min(values.count, Int(cpulse_channels_max())))
        for (i, value) in values.prefix(Int(cvolume.channels)).enumerated() {
            cpulse_cvolume_set_value(&cvolume, UInt32(i), value)
        }
        return cvolume
    }

    /// `pa_channel_map` → position names (`pa_channel_position_to_string`).
    static func channelNames(_ map: pa_channel_map) -> [String] {
        withUnsafePointer(to: map) { pointer in
            (0..<Int(map.channels)).map {
                string(pa_channel_position_to_string(cpulse_channel_map_position(pointer, UInt32($0)))) ?? "mono"
            }
        }
    }

    /// Position names → `pa_channel_map` (`pa_channel_position_from_string`).
    static func channelMap(_ names: [String]) -> pa_channel_map {
        var map = pa_channel_map()
        pa_channel_map_init(&map)
        map.channels = UInt8(min(names.count, Int(cpulse_channels_max())))
        withUnsafeMutableBytes(of: &map.map) { raw in
            let positions = raw.bindMemory(to: pa_channel_position_t.self)
            for (i, name) in names.prefix(Int(map.channels)).enumerated() {
                positions[i] = pa_channel_position_from_string(name)
            }
        }
        return map
    }

    /// `pa_proplist` → dictionary (`pa_proplist_iterate`, `pa_proplist_gets`); with `keys`, only those
    /// keys are read (`pa_proplist_gets` each), and no string is made for the others.
    static func properties(_ list: OpaquePointer?, keys: [String]? = nil) -> [String: String] {
        guard let list else { return [:] }
        var result: [String: String] = [:]
        if let keys {
            for key in keys {
                if let value = pa_proplist_gets(list, key) { result[key] = String(cString: value) }
            }
            return result
        }
        var state: UnsafeMutableRawPointer?
        while let key = pa_proplist_iterate(list, &state) {
            if let value = pa_proplist_gets(list, key) { result[String(cString: key)] = String(cString: value) }
        }
        return result
    }

    /// A sink or source, from either C structure.
    static func device<Info: CDeviceInfo>(_ info: Info, isSink: Bool, monitorOfSink: UInt32?) -> PulseDevice {
        var ports: [PulsePort] = []
        for i in 0..<Int(info.n_ports) {
            guard let p = info.ports?[i]?.pointee else { continue }
            ports.append(PulsePort(name: string(p.name) ?? "", description: string(p.description) ?? "",
                                   priority: p.priority, available: p.available, type: p.type))
        }
        return PulseDevice(
            isSink: isSink, index: info.index, name: string(info.name) ?? "", description: string(info.description) ?? "",
            ports: ports, activePortName: string(info.active_port?.pointee.name), volume: volume(info.volume),
            mute: info.mute != 0, sampleRate: info.sample_spec.rate, channelNames: channelNames(info.channel_map),
            latency: info.latency, configuredLatency: info.configured_latency, properties: properties(info.proplist),
            card: index(info.card), monitorOfSink: monitorOfSink, ownerModule: index(info.owner_module))
    }

    static func device(sink info: pa_sink_info) -> PulseDevice { device(info, isSink: true, monitorOfSink: nil) }

    static func device(source info: pa_source_info) -> PulseDevice {
        device(info, isSink: false, monitorOfSink: index(info.monitor_of_sink))
    }

    /// A sink-input or source-output, from either C structure.
    static func stream<Info: CStreamInfo>(_ info: Info, isSinkInput: Bool, device: UInt32, keys: [String]?) -> PulseStream {
        PulseStream(
            isSinkInput: isSinkInput, index: info.index, name: string(info.name) ?? "", client: index(info.client),
            ownerModule: index(info.owner_module), device: device, corked: info.corked != 0, mute: info.mute != 0,
            volume: volume(info.volume), hasVolume: info.has_volume != 0, channelNames: channelNames(info.channel_map),
            properties: properties(info.proplist, keys: keys))
    }

    static func stream(sinkInput info: pa_sink_input_info, keys: [String]? = nil) -> PulseStream {
        stream(info, isSinkInput: true, device: info.sink, keys: keys)
    }

    static func stream(sourceOutput info: pa_source_output_info, keys: [String]? = nil) -> PulseStream {
        stream(info, isSinkInput: false, device: info.source, keys: keys)
    }

    static func card(_ info: pa_card_info) -> PulseCard {
        let profiles = (0..<Int(info.n_profiles)).compactMap { info.profiles2?[$0]?.pointee }.map {
            PulseCard.Profile(name: string($0.name) ?? "", description: string($0.description) ?? "",
                              available: $0.available != 0)
        }
        return PulseCard(index: info.index, name: string(info.name) ?? "", profiles: profiles,
                         activeProfileName: string(info.active_profile2?.pointee.name),
                         properties: properties(info.proplist))
    }

    static func client(_ info: pa_client_info) -> PulseClientInfo {
        PulseClientInfo(index: info.index, name: string(info.name) ?? "", properties: properties(info.proplist))
    }

    static func server(_ info: pa_server_info) -> PulseServerInfo {
        PulseServerInfo(name: string(info.server_name) ?? "", version: string(info.server_version) ?? "",
                        defaultSinkName: string(info.default_sink_name), defaultSourceName: string(info.default_source_name))
    }

    static func module(_ info: pa_module_info) -> PulseModule {
        PulseModule(index: info.index, name: string(info.name) ?? "", argument: string(info.argument) ?? "")
    }

    static func restoreEntry(_ info: pa_ext_stream_restore_info) -> PulseRestoreEntry {
        PulseRestoreEntry(name: string(info.name) ?? "", channelNames: channelNames(info.channel_map),
                          volume: volume(info.volume), device: string(info.device), mute: info.mute != 0)
    }
}

/// The fields `pa_sink_port_info` and `pa_source_port_info` share.
protocol CPortInfo {
    var name: UnsafePointer<CChar>! { get }
    var description: UnsafePointer<CChar>! { get }
    var priority: UInt32 { get }
    var available: Int32 { get }
    var type: UInt32 { get }
}

/// The fields `pa_sink_info` and `pa_source_info` share.
protocol CDeviceInfo {
    associatedtype Port: CPortInfo
    var name: UnsafePointer<CChar>! { get }
    var index: UInt32 { get }
    var description: UnsafePointer<CChar>! { get }
    var sample_spec: pa_sample_spec { get }
    var channel_map: pa_channel_map { get }
    var owner_module: UInt32 { get }
    var volume: pa_cvolume { get }
    var mute: Int32 { get }
    var latency: pa_usec_t { get }
    var proplist: OpaquePointer! { get }
    var configured_latency: pa_usec_t { get }
    var card: UInt32 { get }
    var n_ports: UInt32 { get }
    var ports: UnsafeMutablePointer<UnsafeMutablePointer<Port>?>! { get }
    var active_port: UnsafeMutablePointer<Port>! { get }
}

extension pa_sink_port_info: CPortInfo {}
extension pa_source_port_info: CPortInfo {}
extension pa_sink_info: CDeviceInfo {}
extension pa_source_info: CDeviceInfo {}

/// The fields `pa_sink_input_info` and `pa_source_output_info` share.
protocol CStreamInfo {
    var index: UInt32 { get }
    var name: UnsafePointer<CChar>! { get }
    var owner_module: UInt32 { get }
    var client: UInt32 { get }
    var channel_map: pa_channel_map { get }
    var volume: pa_cvolume { get }
    var proplist: OpaquePointer! { get }
    var corked: Int32 { get }
    var has_volume: Int32 { get }
    var mute: Int32 { get }
}

extension pa_sink_input_info: CStreamInfo {}
extension pa_source_output_info: CStreamInfo {}
