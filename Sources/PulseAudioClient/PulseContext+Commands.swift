// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

extension PulseContext {
    /// A completion for commands.
    public typealias Completion = (Result<Void, PulseError>) -> Void

    private func command(_ operation: String, _ completion: @escaping Completion,
                         _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?) {
        let box = SuccessBox(operation: operation, owner: self, completion)
        box.start(start(pointer, box.userdata))
    }

    /// Mutes or unmutes a sink-input (`pa_context_set_sink_input_mute`).
    public func setSinkInputMute(_ index: UInt32, _ mute: Bool, _ completion: @escaping Completion) {
        command("set sink-input mute", completion) {
            pa_context_set_sink_input_mute($0, index, mute ? 1 : 0, SuccessBox.callback, $1)
        }
    }

    /// Mutes or unmutes a source-output (`pa_context_set_source_output_mute`).
    public func setSourceOutputMute(_ index: UInt32, _ mute: Bool, _ completion: @escaping Completion) {
        command("set source-output mute", completion) {
            pa_context_set_source_output_mute($0, index, mute ? 1 : 0, SuccessBox.callback, $1)
        }
    }

    /// Sets a sink-input's volume, one raw value per channel (`pa_context_set_sink_input_volume`).
    public func setSinkInputVolume(_ index: UInt32, _ volume: [UInt32], _ completion: @escaping Completion) {
        var cvolume = CConversion.cvolume(volume)
        command("set sink-input volume", completion) {
            pa_context_set_sink_input_volume($0, index, &cvolume, SuccessBox.callback, $1)
        }
    }

    /// Sets a source-output's volume (`pa_context_set_source_output_volume`).
    public func setSourceOutputVolume(_ index: UInt32, _ volume: [UInt32], _ completion: @escaping Completion) {
        var cvolume = CConversion.cvolume(volume)
        command("set source-output volume", completion) {
            pa_context_set_source_output_volume($0, index, &cvolume, SuccessBox.callback, $1)
        }
    }

    /// Sets a sink's volume (`pa_context_set_sink_volume_by_index`).
    public func setSinkVolume(_ index: UInt32, _ volume: [UInt32], _ completion: @escaping Completion) {
        var cvolume = CConversion.cvolume(volume)
        command("set sink volume", completion) {
            pa_context_set_sink_volume_by_index($0, index, &cvolume, SuccessBox.callback, $1)
        }
    }

    /// Sets a source's volume (`pa_context_set_source_volume_by_index`).
    public func setSourceVolume(_ index: UInt32, _ volume: [UInt32], _ completion: @escaping Completion) {
        var cvolume = CConversion.cvolume(volume)
        command("set source volume", completion) {
            pa_context_set_source_volume_by_index($0, index, &cvolume, SuccessBox.callback, $1)
        }
    }

    /// Moves a sink-input to another sink (`pa_context_move_sink_input_by_index`).
    public func moveSinkInput(_ index: UInt32, toSink sink: UInt32, _ completion: @escaping Completion) {
        command("move sink-input", completion) {
            pa_context_move_sink_input_by_index($0, index, sink, SuccessBox.callback, $1)
        }
    }

    /// Moves a source-output to another source (`pa_context_move_source_output_by_index`).
    public func moveSourceOutput(_ index: UInt32, toSource source: UInt32, _ completion: @escaping Completion) {
        command("move source-output", completion) {
            pa_context_move_source_output_by_index($0, index, source, SuccessBox.callback, $1)
        }
    }

    /// Ends a sink-input on the server, whichever client plays it (`pa_context_kill_sink_input`).
    public func killSinkInput(_ index: UInt32, _ completion: @escaping Completion) {
        command("kill sink-input", completion) { pa_context_kill_sink_input($0, index, SuccessBox.callback, $1) }
    }

    /// Sets a card's profile (`pa_context_set_card_profile_by_index`).
    public func setCardProfile(_ index: UInt32, _ profile: String, _ completion: @escaping Completion) {
        command("set card profile", completion) {
            pa_context_set_card_profile_by_index($0, index, profile, SuccessBox.callback, $1)
        }
    }

    /// Unloads a module (`pa_context_unload_module`).
    public func unloadModule(_ index: UInt32, _ completion: @escaping Completion) {
        command("unload module", completion) { pa_context_unload_module($0, index, SuccessBox.callback, $1) }
    }

    /// Loads a module (`pa_context_load_module`); the completion gets its index.
    public func loadModule(_ name: String, argument: String, _ completion: @escaping (Result<UInt32, PulseError>) -> Void) {
        let box = IndexBox(operation: "load module \(name)", owner: self, completion)
        box.start(pa_context_load_module(pointer, name, argument, IndexBox.callback, box.userdata))
    }

    /// Writes entries of the server's stream memory, replacing those with the same names
    /// (`pa_ext_stream_restore_write`, `PA_UPDATE_REPLACE`).
    public func writeRestoreEntries(_ entries: [PulseRestoreEntry], _ completion: @escaping Completion) {
        // The C strings and structures must live until the call returns; libpulse copies them.
        let names = entries.map { strdup($0.name) }
        let devices = entries.map { $0.device.map { strdup($0) } ?? nil }
        defer {
            names.forEach { free($0) }
            devices.forEach { free($0) }
        }
        var infos = entries.enumerated().map { i, entry in
            pa_ext_stream_restore_info(
                name: names[i], channel_map: CConversion.channelMap(entry.channelNames),
                volume: CConversion.cvolume(entry.volume), device: devices[i], mute: entry.mute ? 1 : 0)
        }
        let count = UInt32(infos.count)
        command("write stream-restore entries", completion) { context, userdata in
            infos.withUnsafeMutableBufferPointer {
                pa_ext_stream_restore_write(context, PA_UPDATE_REPLACE, $0.baseAddress, count, 0, SuccessBox.callback, userdata)
            }
        }
    }
}

extension PulseContext {
    /// Merges `properties` into the connection's own client (`pa_context_proplist_update`). With none,
    /// nothing changes, but PulseAudio still announces a change of the client to every subscriber, after
    /// every change it made before it: a marker in the order of its announcements.
    public func updateOwnProperties(_ properties: [String: String] = [:], _ completion: @escaping Completion) {
        let list = pa_proplist_new()
        defer { pa_proplist_free(list) }
        for (key, value) in properties { pa_proplist_sets(list, key, value) }
        command("update the client's properties", completion) {
            pa_context_proplist_update($0, PA_UPDATE_MERGE, list, SuccessBox.callback, $1)
        }
    }
}
