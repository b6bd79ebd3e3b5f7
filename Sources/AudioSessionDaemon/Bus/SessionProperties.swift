// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import DBusKit
import AudioSessionIPC

/// A property of a session object, named as on the bus, in the order the object lists them.
enum SessionProperty: String, CaseIterable {
    case appID = "AppId", streamToken = "StreamToken", category = "Category", mode = "Mode"
    case categoryOptions = "CategoryOptions", isActive = "IsActive", isInterrupted = "IsInterrupted"
    case activationState = "ActivationState"
    case currentRoute = "CurrentRoute", availableInputs = "AvailableInputs", isInputAvailable = "IsInputAvailable"
    case preferredInput = "PreferredInput", inputGain = "InputGain", isInputGainSettable = "IsInputGainSettable"
    case isOtherAudioPlaying = "IsOtherAudioPlaying"
    case secondaryAudioShouldBeSilencedHint = "SecondaryAudioShouldBeSilencedHint"
    case sampleRate = "SampleRate", preferredSampleRate = "PreferredSampleRate", ioBufferDuration = "IOBufferDuration"
    case preferredIOBufferDuration = "PreferredIOBufferDuration", outputLatency = "OutputLatency"
    case inputLatency = "InputLatency", outputVolume = "OutputVolume", outputNumberOfChannels = "OutputNumberOfChannels"
    case inputNumberOfChannels = "InputNumberOfChannels"
    case prefersNoInterruptionsFromSystemAlerts = "PrefersNoInterruptionsFromSystemAlerts"
    case nowPlayingPlayer = "NowPlayingPlayer", recordPermission = "RecordPermission"

    /// The D-Bus signature of the property's value.
    var signature: String {
        switch self {
        case .appID, .streamToken, .category, .mode, .preferredInput, .nowPlayingPlayer, .recordPermission, .activationState: "s"
        case .categoryOptions: "as"
        case .isActive, .isInterrupted, .isInputAvailable, .isInputGainSettable, .isOtherAudioPlaying,
             .secondaryAudioShouldBeSilencedHint, .prefersNoInterruptionsFromSystemAlerts: "b"
        case .currentRoute: "(aa{sv}aa{sv})"
        case .availableInputs: "aa{sv}"
        case .inputGain, .sampleRate, .preferredSampleRate, .ioBufferDuration, .preferredIOBufferDuration,
             .outputLatency, .inputLatency, .outputVolume: "d"
        case .outputNumberOfChannels, .inputNumberOfChannels: "i"
        }
    }
}

/// The properties of a session object, read from the engine.
enum SessionProperties {
    /// Every property of a session, in the order of `SessionProperty.allCases`.
    static func values(of session: Session, in engine: PolicyEngine) -> [BusValue] {
        let hardware = engine.hardwareValues(of: session.id)
        return SessionProperty.allCases.map { value($0, of: session, in: engine, hardware: hardware) }
    }

    /// One property, computing only what it needs (the hardware values when given are reused).
    static func value(_ property: SessionProperty, of session: Session, in engine: PolicyEngine,
                      hardware known: HardwareValues? = nil) -> BusValue {
        var hardware: HardwareValues { known ?? engine.hardwareValues(of: session.id) }
        switch property {
        case .appID: return .string(session.appID)
        case .streamToken: return .string(session.token ?? "")
        case .category: return .string(session.configuration.category.rawValue)
        case .mode: return .string(session.configuration.mode.rawValue)
        case .categoryOptions: return .strings(session.configuration.options.names)
        case .isActive: return .bool(session.isActive)
        case .isInterrupted: return .bool(session.isInterrupted)
        case .activationState: return .string(session.activationState.rawValue)
        case .currentRoute: return Codec.encode(engine.currentRoute(of: session.id))
        case .availableInputs:
            return Codec.encode(engine.devices.values.filter { $0.id.direction == .input && !$0.isMonitor }
                .sorted { $0.id < $1.id }.map(\.portDescription))
        case .isInputAvailable:
            return .bool(engine.devices.values.contains { $0.id.direction == .input && !$0.isMonitor })
        case .preferredInput: return .string(session.preferredInput ?? "")
        case .inputGain: return .double(engine.inputGain(of: session))
        case .isInputGainSettable: return .bool(engine.isInputGainSettable(session))
        case .isOtherAudioPlaying: return .bool(engine.isOtherAudioPlaying(for: session.id))
        case .secondaryAudioShouldBeSilencedHint: return .bool(session.secondaryAudioShouldBeSilenced)
        case .sampleRate: return .double(hardware.sampleRate)
        case .preferredSampleRate: return .double(session.preferredSampleRate)
        case .ioBufferDuration: return .double(hardware.ioBufferDuration)
        case .preferredIOBufferDuration: return .double(session.preferredIOBufferDuration)
        case .outputLatency: return .double(hardware.outputLatency)
        case .inputLatency: return .double(hardware.inputLatency)
        case .outputVolume: return .double(hardware.outputVolume)
        case .outputNumberOfChannels: return .int32(Int32(hardware.outputChannels))
        case .inputNumberOfChannels: return .int32(Int32(hardware.inputChannels))
        case .prefersNoInterruptionsFromSystemAlerts: return .bool(session.prefersNoInterruptionsFromSystemAlerts)
        case .nowPlayingPlayer: return .string(session.nowPlayingPlayer ?? "")
        case .recordPermission: return .string(engine.recordPermission(of: session).rawValue)
        }
    }

    /// The properties whose values differ between two lists made by ``values(of:in:)``, by name.
    static func changes(from before: [BusValue], to after: [BusValue]) -> [(String, BusValue)] {
        zip(SessionProperty.allCases, zip(before, after)).compactMap { property, pair in
            pair.0 == pair.1 ? nil : (property.rawValue, pair.1)
        }
    }
}
