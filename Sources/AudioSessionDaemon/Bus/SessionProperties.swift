import AudioPolicy
import AudioSessionModel
import DBusKit
import AudioSessionIPC

/// The properties of a session object, read from the engine.
enum SessionProperties {
    static let names = [
        "AppId", "StreamToken", "Category", "Mode", "CategoryOptions", "IsActive", "IsInterrupted", "CurrentRoute",
        "AvailableInputs", "IsOtherAudioPlaying", "SecondaryAudioShouldBeSilencedHint", "SampleRate",
        "PreferredSampleRate", "IOBufferDuration", "PreferredIOBufferDuration", "OutputLatency", "InputLatency",
        "OutputVolume", "OutputNumberOfChannels", "InputNumberOfChannels", "PrefersNoInterruptionsFromSystemAlerts",
    ]

    static let signatures: [String: String] = [
        "AppId": "s", "StreamToken": "s", "Category": "s", "Mode": "s", "CategoryOptions": "as", "IsActive": "b",
        "IsInterrupted": "b", "CurrentRoute": "(aa{sv}aa{sv})", "AvailableInputs": "aa{sv}", "IsOtherAudioPlaying": "b",
        "SecondaryAudioShouldBeSilencedHint": "b", "SampleRate": "d", "PreferredSampleRate": "d",
        "IOBufferDuration": "d", "PreferredIOBufferDuration": "d", "OutputLatency": "d", "InputLatency": "d",
        "OutputVolume": "d", "OutputNumberOfChannels": "i", "InputNumberOfChannels": "i",
        "PrefersNoInterruptionsFromSystemAlerts": "b",
    ]

    /// Every property of a session, in the order of ``names``.
    static func values(of session: Session, in engine: PolicyEngine) -> [(String, BusValue)] {
        let hardware = engine.hardwareValues(of: session.id)
        let inputs = engine.devices.values.filter { $0.id.direction == .input && !$0.isMonitor }
            .sorted { $0.id < $1.id }.map(\.portDescription)
        let values: [String: BusValue] = [
            "AppId": .string(session.appID),
            "StreamToken": .string(session.token ?? ""),
            "Category": .string(session.configuration.category.rawValue),
            "Mode": .string(session.configuration.mode.rawValue),
            "CategoryOptions": .strings(session.configuration.options.names),
            "IsActive": .bool(session.isActive),
            "IsInterrupted": .bool(session.isInterrupted),
            "CurrentRoute": Codec.encode(engine.currentRoute(of: session.id)),
            "AvailableInputs": Codec.encode(inputs),
            "IsOtherAudioPlaying": .bool(engine.isOtherAudioPlaying(for: session.id)),
            "SecondaryAudioShouldBeSilencedHint": .bool(session.secondaryAudioShouldBeSilenced),
            "SampleRate": .double(hardware.sampleRate),
            "PreferredSampleRate": .double(session.preferredSampleRate),
            "IOBufferDuration": .double(hardware.ioBufferDuration),
            "PreferredIOBufferDuration": .double(session.preferredIOBufferDuration),
            "OutputLatency": .double(hardware.outputLatency),
            "InputLatency": .double(hardware.inputLatency),
            "OutputVolume": .double(hardware.outputVolume),
            "OutputNumberOfChannels": .int32(Int32(hardware.outputChannels)),
            "InputNumberOfChannels": .int32(Int32(hardware.inputChannels)),
            "PrefersNoInterruptionsFromSystemAlerts": .bool(session.prefersNoInterruptionsFromSystemAlerts),
        ]
        return names.map { ($0, values[$0]!) }
    }
}
