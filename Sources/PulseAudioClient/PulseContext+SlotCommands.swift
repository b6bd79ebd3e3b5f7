// SPDX-License-Identifier: Apache-2.0
import CPulse

/// A command to a stream's levels, sent in one of the context's numbered places (``PulseContext/send(_:)``).
public enum PulseLevelCommand: Sendable {
    /// `pa_context_set_sink_input_mute`.
    case sinkInputMute(UInt32, Bool)
    /// `pa_context_set_source_output_mute`.
    case sourceOutputMute(UInt32, Bool)
    /// `pa_context_set_sink_input_volume`, one raw value per channel.
    case sinkInputVolume(UInt32, [UInt32])
    /// `pa_context_set_source_output_volume`, one raw value per channel.
    case sourceOutputVolume(UInt32, [UInt32])
}

/// Level commands without an allocation of the wrapper's: the path of an interruption's first moves
/// (DESIGN §3). A command takes one of ``slotCapacity`` numbered places, made once; its answer comes to
/// ``onSlotAnswer`` with that number, where the caller keeps what it needs to know of the command.
extension PulseContext {
    /// How many commands sent with ``send(_:)`` may await their answers at once.
    public static let slotCapacity = 256

    /// Sends a level command in a free place and returns its number, or throws when libpulse refused
    /// it at once; nil (nothing sent) when every place is taken: send it with a completion then.
    /// Its answer comes to ``onSlotAnswer``, unless the connection ends first (as with completions, the
    /// answers of a connection that ended never come).
    public func send(_ command: PulseLevelCommand) throws(PulseError) -> Int? {
        guard let (number, userdata) = slots.take() else { return nil }
        let operation: OpaquePointer?
        switch command {
        case .sinkInputMute(let index, let mute):
            operation = pa_context_set_sink_input_mute(pointer, index, mute ? 1 : 0, CommandSlots.callback, userdata)
        case .sourceOutputMute(let index, let mute):
            operation = pa_context_set_source_output_mute(pointer, index, mute ? 1 : 0, CommandSlots.callback, userdata)
        case .sinkInputVolume(let index, let volume):
            var cvolume = CConversion.cvolume(volume)
            operation = pa_context_set_sink_input_volume(pointer, index, &cvolume, CommandSlots.callback, userdata)
        case .sourceOutputVolume(let index, let volume):
            var cvolume = CConversion.cvolume(volume)
            operation = pa_context_set_source_output_volume(pointer, index, &cvolume, CommandSlots.callback, userdata)
        }
        guard let operation else {
            slots.give(back: number)
            throw PulseError.fromContext(pointer, "level command")
        }
        pa_operation_unref(operation)
        return number
    }

    /// A place's answer came: its number is free again, and the handler hears of it.
    func slotAnswered(_ number: Int, _ error: PulseError?) {
        slots.give(back: number)
        onSlotAnswer?(number, error)
    }
}

extension PulseContext {
    /// Sends a level command with a completion of its own (an allocation): for when every numbered
    /// place is taken, or a caller that wants its answer where it asked.
    public func send(_ command: PulseLevelCommand, _ completion: @escaping Completion) {
        switch command {
        case .sinkInputMute(let index, let mute): setSinkInputMute(index, mute, completion)
        case .sourceOutputMute(let index, let mute): setSourceOutputMute(index, mute, completion)
        case .sinkInputVolume(let index, let volume): setSinkInputVolume(index, volume, completion)
        case .sourceOutputVolume(let index, let volume): setSourceOutputVolume(index, volume, completion)
        }
    }
}
