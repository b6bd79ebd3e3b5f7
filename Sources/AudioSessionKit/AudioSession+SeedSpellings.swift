// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

/// Apple's Swift names of the port types (`AVAudioSession.Port.builtInSpeaker`, …) where they differ
/// from the model's; the others (`.headphones`, `.bluetoothHFP`, `.usbAudio`, `.fireWire`, `.thunderbolt`, …) are spelt alike.
extension PortType {
    public static let builtInSpeaker = PortType.speaker
    public static let builtInReceiver = PortType.receiver
    public static let bluetoothA2DP = PortType.bluetoothA2DPOutput
    public static let HDMI = PortType.hdmiOutput
    public static let PCI = PortType.pci
    public static let AVB = PortType.avb
    public static let builtInMic = PortType.microphoneBuiltIn
    public static let headsetMic = PortType.microphoneWired
}

// The spellings of the seeds' era, renamed from `AVAudioSession…`: category, mode and port-type
// constants, top-level type names and notification names, so that such code ports by renaming alone.

public let AudioSessionCategoryAmbient = AudioSession.Category.ambient
public let AudioSessionCategorySoloAmbient = AudioSession.Category.soloAmbient
public let AudioSessionCategoryPlayback = AudioSession.Category.playback
public let AudioSessionCategoryRecord = AudioSession.Category.record
public let AudioSessionCategoryPlayAndRecord = AudioSession.Category.playAndRecord
public let AudioSessionCategoryAudioProcessing = AudioSession.Category.audioProcessing
public let AudioSessionCategoryMultiRoute = AudioSession.Category.multiRoute

public let AudioSessionModeDefault = AudioSession.Mode.default
public let AudioSessionModeVoiceChat = AudioSession.Mode.voiceChat
public let AudioSessionModeVideoChat = AudioSession.Mode.videoChat
public let AudioSessionModeGameChat = AudioSession.Mode.gameChat
public let AudioSessionModeVideoRecording = AudioSession.Mode.videoRecording
public let AudioSessionModeMeasurement = AudioSession.Mode.measurement
public let AudioSessionModeMoviePlayback = AudioSession.Mode.moviePlayback
public let AudioSessionModeSpokenAudio = AudioSession.Mode.spokenAudio
public let AudioSessionModeVoicePrompt = AudioSession.Mode.voicePrompt

public let AudioSessionPortLineIn = AudioSession.Port.lineIn
public let AudioSessionPortBuiltInMic = AudioSession.Port.builtInMic
public let AudioSessionPortHeadsetMic = AudioSession.Port.headsetMic
public let AudioSessionPortLineOut = AudioSession.Port.lineOut
public let AudioSessionPortHeadphones = AudioSession.Port.headphones
public let AudioSessionPortBluetoothA2DP = AudioSession.Port.bluetoothA2DP
public let AudioSessionPortBuiltInReceiver = AudioSession.Port.builtInReceiver
public let AudioSessionPortBuiltInSpeaker = AudioSession.Port.builtInSpeaker
public let AudioSessionPortHDMI = AudioSession.Port.HDMI
public let AudioSessionPortAirPlay = AudioSession.Port.airPlay
public let AudioSessionPortBluetoothLE = AudioSession.Port.bluetoothLE
public let AudioSessionPortBluetoothHFP = AudioSession.Port.bluetoothHFP
public let AudioSessionPortUSBAudio = AudioSession.Port.usbAudio
public let AudioSessionPortCarAudio = AudioSession.Port.carAudio
public let AudioSessionPortVirtual = AudioSession.Port.virtual
public let AudioSessionPortPCI = AudioSession.Port.PCI
public let AudioSessionPortFireWire = AudioSession.Port.fireWire
public let AudioSessionPortDisplayPort = AudioSession.Port.displayPort
public let AudioSessionPortAVB = AudioSession.Port.AVB
public let AudioSessionPortThunderbolt = AudioSession.Port.thunderbolt

public typealias AudioSessionInterruptionType = AudioSession.InterruptionType
public typealias AudioSessionInterruptionOptions = AudioSession.InterruptionOptions
public typealias AudioSessionInterruptionReason = AudioSession.InterruptionReason
public typealias AudioSessionRouteChangeReason = AudioSession.RouteChangeReason
public typealias AudioSessionSilenceSecondaryAudioHintType = AudioSession.SilenceSecondaryAudioHintType
public typealias AudioSessionCategoryOptions = AudioSession.CategoryOptions
public typealias AudioSessionSetActiveOptions = AudioSession.SetActiveOptions
public typealias AudioSessionPortOverride = AudioSession.PortOverride

extension Notification.Name {
    public static let AudioSessionInterruption = AudioSession.interruptionNotification
    public static let AudioSessionRouteChange = AudioSession.routeChangeNotification
    public static let AudioSessionSilenceSecondaryAudioHint = AudioSession.silenceSecondaryAudioHintNotification
    public static let AudioSessionMediaServicesWereLost = AudioSession.mediaServicesWereLostNotification
    public static let AudioSessionMediaServicesWereReset = AudioSession.mediaServicesWereResetNotification
}

/// The seeds' names of the hardware properties, beside the modern ones they became.
extension AudioSession {
    /// `isOtherAudioPlaying`.
    public var otherAudioPlaying: Bool { isOtherAudioPlaying }
    /// `sampleRate`.
    public var currentHardwareSampleRate: Double { sampleRate }
    /// `inputNumberOfChannels`.
    public var currentHardwareInputNumberOfChannels: Int { inputNumberOfChannels }
    /// `outputNumberOfChannels`.
    public var currentHardwareOutputNumberOfChannels: Int { outputNumberOfChannels }
    /// `preferredSampleRate`.
    public var preferredHardwareSampleRate: Double { preferredSampleRate }
    /// `setPreferredSampleRate(_:)`.
    public func setPreferredHardwareSampleRate(_ sampleRate: Double) throws { try setPreferredSampleRate(sampleRate) }
}
