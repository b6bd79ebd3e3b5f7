// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import DBusKit
import AudioSessionIPC

/// The properties of a session object, read from the engine.
enum SessionProperties {
    static let names = [
        "AppId", "StreamToken", "Category", "Mode", "CategoryOptions", "IsActive", "IsInterrupted", "CurrentRoute",
        "AvailableInputs", "IsInputAvailable", "PreferredInput", "InputGain", "IsInputGainSettable", "IsOtherAudioPlaying", "SecondaryAudioShouldBeSilencedHint", "SampleRate",
        "PreferredSampleRate", "IOBufferDuration", "PreferredIOBufferDuration", "OutputLatency", "InputLatency",
        "OutputVolume", "OutputNumberOfChannels", "InputNumberOfChannels", "PrefersNoInterruptionsFromSystemAlerts",
        "NowPlayingPlayer", "RecordPermission",
    ]

    static let signatures: [String: String] = [
        "AppId": "s", "StreamToken": "s", "Category": "s", "Mode": "s", "CategoryOptions": "as", "IsActive": "b",
        "IsInterrupted": "b", "CurrentRoute": "(aa{sv}aa{sv})", "AvailableInputs": "aa{sv}", "IsOtherAudioPlaying": "b",
        "IsInputAvailable": "b", "PreferredInput": "s", "InputGain": "d", "IsInputGainSettable": "b",
        "SecondaryAudioShouldBeSilencedHint": "b", "SampleRate": "d", "PreferredSampleRate": "d",
        "IOBufferDuration": "d", "PreferredIOBufferDuration": "d", "OutputLatency": "d", "InputLatency": "d",
        "OutputVolume": "d", "OutputNumberOfChannels": "i", "InputNumberOfChannels": "i",
        "PrefersNoInterruptionsFromSystemAlerts": "b",
        "NowPlayingPlayer": "s",
        "RecordPermission": "s",
    ]

    /// Every property of a session, in the order of ``names``.
    static func values(of session: Session, in engine: PolicyEngine) -> [(String, BusValue)] {
        let hardware = engine.hardwareValues(of: session.id)
        return names.map { ($0, value($0, of: session, in: engine, hardware: hardware)) }
    }

    /// One property, computing only what it needs (the hardware values when given are reused).
    static func value(_ name: String, of session: Session, in engine: PolicyEngine,
                      hardware known: HardwareValues? = nil) -> BusValue {
        var hardware: HardwareValues { known ?? engine.hardwareValues(of: session.id) }
        switch name {
        case "AppId": return .string(session.appID)
        case "StreamToken": return .string(session.token ?? "")
        case "Category": return .string(session.configuration.category.rawValue)
        case "Mode": return .string(session.configuration.mode.rawValue)
        case "CategoryOptions": return .strings(session.configuration.options.names)
        case "IsActive": return .bool(session.isActive)
        case "IsInterrupted": return .bool(session.isInterrupted)
        case "CurrentRoute": return Codec.encode(engine.currentRoute(of: session.id))
        case "AvailableInputs":
            return Codec.encode(engine.devices.values.filter { $0.id.direction == .input && !$0.isMonitor }
                .sorted { $0.id < $1.id }.map(\.portDescription))
        case "IsInputAvailable":
            return .bool(engine.devices.values.contains { $0.id.direction == .input && !$0.isMonitor })
        case "PreferredInput": return .string(session.preferredInput ?? "")
        case "InputGain": return .double(engine.inputGain(of: session))
        case "IsInputGainSettable": return .bool(engine.isInputGainSettable(session))
        case "IsOtherAudioPlaying": return .bool(engine.isOtherAudioPlaying(for: session.id))
        case "SecondaryAudioShouldBeSilencedHint": return .bool(session.secondaryAudioShouldBeSilenced)
        case "SampleRate": return .double(hardware.sampleRate)
        case "PreferredSampleRate": return .double(session.preferredSampleRate)
        case "IOBufferDuration": return .double(hardware.ioBufferDuration)
        case "PreferredIOBufferDuration": return .double(session.preferredIOBufferDuration)
        case "OutputLatency": return .double(hardware.outputLatency)
        case "InputLatency": return .double(hardware.inputLatency)
        case "OutputVolume": return .double(hardware.outputVolume)
        case "OutputNumberOfChannels": return .int32(Int32(hardware.outputChannels))
        case "InputNumberOfChannels": return .int32(Int32(hardware.inputChannels))
        case "PrefersNoInterruptionsFromSystemAlerts": return .bool(session.prefersNoInterruptionsFromSystemAlerts)
        case "NowPlayingPlayer": return .string(session.nowPlayingPlayer ?? "")
        case "RecordPermission": return .string(engine.recordPermission(of: session).rawValue)
        default: preconditionFailure("\(name) is not a session property")
        }
    }
}
