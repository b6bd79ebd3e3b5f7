// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import AudioSessionModel
import Foundation

/// The route and hardware properties. Each read answers from the values the bridge last published
/// (read once when the session is made, then kept by PropertiesChanged): no round trip. The first
/// read creates the session on the bridge. Without a bridge there is nothing to answer from, and a
/// read gives what an inactive session without a route has — an empty route, 0, false, nil; call
/// ``refreshProperties()`` to get `MediaServicesFailed` thrown instead.
extension AudioSession {
    // MARK: Routes

    /// The session's inputs and outputs now, as the bridge last published them.
    public var currentRoute: AudioSessionRouteDescription {
        AudioSessionRouteDescription(property("CurrentRoute").flatMap(Codec.decodeRoute) ?? .empty)
    }

    /// The inputs the session could record from; nil when the bridge was never reached.
    public var availableInputs: [AudioSessionPortDescription]? {
        property("AvailableInputs")?.arrayItems?.compactMap(Codec.decodePort).map(AudioSessionPortDescription.init)
    }

    /// Whether any input (a microphone, a line in) is there to record from.
    public var isInputAvailable: Bool { property("IsInputAvailable")?.boolValue ?? false }

    /// The input the session prefers (one of ``availableInputs``), or nil.
    public var preferredInput: AudioSessionPortDescription? {
        guard let uid = property("PreferredInput")?.stringValue, !uid.isEmpty else { return nil }
        return availableInputs?.first { $0.uid == uid }
    }

    /// Prefers an input (one of ``availableInputs``), or none.
    public func setPreferredInput(_ input: AudioSessionPortDescription?) throws {
        _ = try call("SetPreferredInput", [.string(input?.uid ?? "")])
        update { $0.preferredInput = input?.uid }
    }

    /// Sends a `playAndRecord` session's output to the built-in speaker (`.speaker`), or back to its
    /// route (`.none`); throws `AudioSessionError` when the category cannot be overridden.
    public func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
        _ = try call("OverrideOutputAudioPort", [.string(portOverride == .speaker ? "speaker" : "none")])
        update { $0.portOverride = portOverride }
    }

    // MARK: Input gain

    /// The gain of the route's input, 0…1: the volume of the input device (the source).
    public var inputGain: Float { Float(property("InputGain")?.doubleValue ?? 0) }

    /// Whether ``setInputGain(_:)`` can succeed now: the category records, the session is active and
    /// its route has an input.
    public var isInputGainSettable: Bool { property("IsInputGainSettable")?.boolValue ?? false }

    /// Sets the volume of the route's input device (0…1). It is kept, as a change in a mixer is:
    /// the bridge does not undo it. `CannotStartRecording` in a category without input,
    /// `SessionNotActive` while inactive, `ResourceNotAvailable` without an input, `BadParam` outside 0…1.
    public func setInputGain(_ gain: Float) throws {
        _ = try call("SetInputGain", [.double(Double(gain))])
    }

    // MARK: Hardware

    /// Whether another app plays now.
    public var isOtherAudioPlaying: Bool { property("IsOtherAudioPlaying")?.boolValue ?? false }
    /// Whether other audio that is primary plays: silence a game's soundtrack and the like.
    public var secondaryAudioShouldBeSilencedHint: Bool { property("SecondaryAudioShouldBeSilencedHint")?.boolValue ?? false }
    /// The sample rate of the session's output device, in hertz.
    public var sampleRate: Double { property("SampleRate")?.doubleValue ?? 0 }
    /// The sample rate the app asked for (``setPreferredSampleRate(_:)``); 0 when it asked for none.
    public var preferredSampleRate: Double { property("PreferredSampleRate")?.doubleValue ?? 0 }
    /// The buffer duration the session's streams get, in seconds.
    public var ioBufferDuration: TimeInterval { property("IOBufferDuration")?.doubleValue ?? 0 }
    /// The buffer duration the app asked for (``setPreferredIOBufferDuration(_:)``); 0 when it asked for none.
    public var preferredIOBufferDuration: TimeInterval { property("PreferredIOBufferDuration")?.doubleValue ?? 0 }
    /// The output device's latency, in seconds.
    public var outputLatency: TimeInterval { property("OutputLatency")?.doubleValue ?? 0 }
    /// The input device's latency, in seconds.
    public var inputLatency: TimeInterval { property("InputLatency")?.doubleValue ?? 0 }
    /// The volume of the session's output device, 0…1, as the user set it.
    public var outputVolume: Float { Float(property("OutputVolume")?.doubleValue ?? 0) }
    /// The channel count of the session's output device.
    public var outputNumberOfChannels: Int { Int(property("OutputNumberOfChannels")?.int32Value ?? 0) }
    /// The channel count of the session's input device.
    public var inputNumberOfChannels: Int { Int(property("InputNumberOfChannels")?.int32Value ?? 0) }
    /// Whether system alerts (alarms, timers) leave the session alone.
    public var prefersNoInterruptionsFromSystemAlerts: Bool {
        property("PrefersNoInterruptionsFromSystemAlerts")?.boolValue ?? false
    }

    /// Asks for a sample rate, in hertz; the app's streams then get it where the device allows.
    public func setPreferredSampleRate(_ sampleRate: Double) throws {
        _ = try call("SetPreferredSampleRate", [.double(sampleRate)])
        update { $0.preferredSampleRate = sampleRate }
    }

    /// Asks for a buffer duration, in seconds; the app's streams get buffers of about that length.
    public func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        _ = try call("SetPreferredIOBufferDuration", [.double(duration)])
        update { $0.preferredIOBufferDuration = duration }
    }
}
