// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

/// Apple's Swift names of the port types (`AVAudioSession.Port.builtInSpeaker`, …) where they differ
/// from the model's; the others (`.headphones`, `.bluetoothHFP`, `.usbAudio`, `.fireWire`, `.thunderbolt`, …) are spelt alike.
extension PortType {
    /// `AVAudioSession.Port.builtInSpeaker`: the model's `PortType.speaker`.
    public static let builtInSpeaker = PortType.speaker
    /// `AVAudioSession.Port.builtInReceiver`: the model's `PortType.receiver`.
    public static let builtInReceiver = PortType.receiver
    /// `AVAudioSession.Port.bluetoothA2DP`: the model's `PortType.bluetoothA2DPOutput`.
    public static let bluetoothA2DP = PortType.bluetoothA2DPOutput
    /// `AVAudioSession.Port.HDMI`: the model's `PortType.hdmiOutput`.
    public static let HDMI = PortType.hdmiOutput
    /// `AVAudioSession.Port.PCI`: the model's `PortType.pci`.
    public static let PCI = PortType.pci
    /// `AVAudioSession.Port.AVB`: the model's `PortType.avb`.
    public static let AVB = PortType.avb
    /// `AVAudioSession.Port.builtInMic`: the model's `PortType.microphoneBuiltIn`.
    public static let builtInMic = PortType.microphoneBuiltIn
    /// `AVAudioSession.Port.headsetMic`: the model's `PortType.microphoneWired`.
    public static let headsetMic = PortType.microphoneWired
}

// The spellings of the seeds' era, renamed from `AVAudioSession…`: category, mode and port-type
// constants, top-level type names and notification names, so that such code ports by renaming alone.

/// `AVAudioSessionCategoryAmbient`, the seeds' spelling of the category `AudioSession.Category.ambient`.
public let AudioSessionCategoryAmbient = AudioSession.Category.ambient
/// `AVAudioSessionCategorySoloAmbient`, the seeds' spelling of the category `AudioSession.Category.soloAmbient`.
public let AudioSessionCategorySoloAmbient = AudioSession.Category.soloAmbient
/// `AVAudioSessionCategoryPlayback`, the seeds' spelling of the category `AudioSession.Category.playback`.
public let AudioSessionCategoryPlayback = AudioSession.Category.playback
/// `AVAudioSessionCategoryRecord`, the seeds' spelling of the category `AudioSession.Category.record`.
public let AudioSessionCategoryRecord = AudioSession.Category.record
/// `AVAudioSessionCategoryPlayAndRecord`, the seeds' spelling of the category `AudioSession.Category.playAndRecord`.
public let AudioSessionCategoryPlayAndRecord = AudioSession.Category.playAndRecord
/// `AVAudioSessionCategoryAudioProcessing`, the seeds' spelling of the category `AudioSession.Category.audioProcessing`.
public let AudioSessionCategoryAudioProcessing = AudioSession.Category.audioProcessing
/// `AVAudioSessionCategoryMultiRoute`, the seeds' spelling of the category `AudioSession.Category.multiRoute`.
public let AudioSessionCategoryMultiRoute = AudioSession.Category.multiRoute

/// `AVAudioSessionModeDefault`, the seeds' spelling of the mode `AudioSession.Mode.default`.
public let AudioSessionModeDefault = AudioSession.Mode.default
/// `AVAudioSessionModeVoiceChat`, the seeds' spelling of the mode `AudioSession.Mode.voiceChat`.
public let AudioSessionModeVoiceChat = AudioSession.Mode.voiceChat
/// `AVAudioSessionModeVideoChat`, the seeds' spelling of the mode `AudioSession.Mode.videoChat`.
public let AudioSessionModeVideoChat = AudioSession.Mode.videoChat
/// `AVAudioSessionModeGameChat`, the seeds' spelling of the mode `AudioSession.Mode.gameChat`.
public let AudioSessionModeGameChat = AudioSession.Mode.gameChat
/// `AVAudioSessionModeVideoRecording`, the seeds' spelling of the mode `AudioSession.Mode.videoRecording`.
public let AudioSessionModeVideoRecording = AudioSession.Mode.videoRecording
/// `AVAudioSessionModeMeasurement`, the seeds' spelling of the mode `AudioSession.Mode.measurement`.
public let AudioSessionModeMeasurement = AudioSession.Mode.measurement
/// `AVAudioSessionModeMoviePlayback`, the seeds' spelling of the mode `AudioSession.Mode.moviePlayback`.
public let AudioSessionModeMoviePlayback = AudioSession.Mode.moviePlayback
/// `AVAudioSessionModeSpokenAudio`, the seeds' spelling of the mode `AudioSession.Mode.spokenAudio`.
public let AudioSessionModeSpokenAudio = AudioSession.Mode.spokenAudio
/// `AVAudioSessionModeVoicePrompt`, the seeds' spelling of the mode `AudioSession.Mode.voicePrompt`.
public let AudioSessionModeVoicePrompt = AudioSession.Mode.voicePrompt

/// `AVAudioSessionPortLineIn`, the seeds' spelling of the port type `AudioSession.Port.lineIn`.
public let AudioSessionPortLineIn = AudioSession.Port.lineIn
/// `AVAudioSessionPortBuiltInMic`, the seeds' spelling of the port type `AudioSession.Port.builtInMic`.
public let AudioSessionPortBuiltInMic = AudioSession.Port.builtInMic
/// `AVAudioSessionPortHeadsetMic`, the seeds' spelling of the port type `AudioSession.Port.headsetMic`.
public let AudioSessionPortHeadsetMic = AudioSession.Port.headsetMic
/// `AVAudioSessionPortLineOut`, the seeds' spelling of the port type `AudioSession.Port.lineOut`.
public let AudioSessionPortLineOut = AudioSession.Port.lineOut
/// `AVAudioSessionPortHeadphones`, the seeds' spelling of the port type `AudioSession.Port.headphones`.
public let AudioSessionPortHeadphones = AudioSession.Port.headphones
/// `AVAudioSessionPortBluetoothA2DP`, the seeds' spelling of the port type `AudioSession.Port.bluetoothA2DP`.
public let AudioSessionPortBluetoothA2DP = AudioSession.Port.bluetoothA2DP
/// `AVAudioSessionPortBuiltInReceiver`, the seeds' spelling of the port type `AudioSession.Port.builtInReceiver`.
public let AudioSessionPortBuiltInReceiver = AudioSession.Port.builtInReceiver
/// `AVAudioSessionPortBuiltInSpeaker`, the seeds' spelling of the port type `AudioSession.Port.builtInSpeaker`.
public let AudioSessionPortBuiltInSpeaker = AudioSession.Port.builtInSpeaker
/// `AVAudioSessionPortHDMI`, the seeds' spelling of the port type `AudioSession.Port.HDMI`.
public let AudioSessionPortHDMI = AudioSession.Port.HDMI
/// `AVAudioSessionPortAirPlay`, the seeds' spelling of the port type `AudioSession.Port.airPlay`.
public let AudioSessionPortAirPlay = AudioSession.Port.airPlay
/// `AVAudioSessionPortBluetoothLE`, the seeds' spelling of the port type `AudioSession.Port.bluetoothLE`.
public let AudioSessionPortBluetoothLE = AudioSession.Port.bluetoothLE
/// `AVAudioSessionPortBluetoothHFP`, the seeds' spelling of the port type `AudioSession.Port.bluetoothHFP`.
public let AudioSessionPortBluetoothHFP = AudioSession.Port.bluetoothHFP
/// `AVAudioSessionPortUSBAudio`, the seeds' spelling of the port type `AudioSession.Port.usbAudio`.
public let AudioSessionPortUSBAudio = AudioSession.Port.usbAudio
/// `AVAudioSessionPortCarAudio`, the seeds' spelling of the port type `AudioSession.Port.carAudio`.
public let AudioSessionPortCarAudio = AudioSession.Port.carAudio
/// `AVAudioSessionPortVirtual`, the seeds' spelling of the port type `AudioSession.Port.virtual`.
public let AudioSessionPortVirtual = AudioSession.Port.virtual
/// `AVAudioSessionPortPCI`, the seeds' spelling of the port type `AudioSession.Port.PCI`.
public let AudioSessionPortPCI = AudioSession.Port.PCI
/// `AVAudioSessionPortFireWire`, the seeds' spelling of the port type `AudioSession.Port.fireWire`.
public let AudioSessionPortFireWire = AudioSession.Port.fireWire
/// `AVAudioSessionPortDisplayPort`, the seeds' spelling of the port type `AudioSession.Port.displayPort`.
public let AudioSessionPortDisplayPort = AudioSession.Port.displayPort
/// `AVAudioSessionPortAVB`, the seeds' spelling of the port type `AudioSession.Port.AVB`.
public let AudioSessionPortAVB = AudioSession.Port.AVB
/// `AVAudioSessionPortThunderbolt`, the seeds' spelling of the port type `AudioSession.Port.thunderbolt`.
public let AudioSessionPortThunderbolt = AudioSession.Port.thunderbolt

/// `AVAudioSessionInterruptionType`, the seeds' spelling of ``AudioSession/InterruptionType``.
public typealias AudioSessionInterruptionType = AudioSession.InterruptionType
/// `AVAudioSessionInterruptionOptions`, the seeds' spelling of ``AudioSession/InterruptionOptions``.
public typealias AudioSessionInterruptionOptions = AudioSession.InterruptionOptions
/// `AVAudioSessionInterruptionReason`, the seeds' spelling of ``AudioSession/InterruptionReason``.
public typealias AudioSessionInterruptionReason = AudioSession.InterruptionReason
/// `AVAudioSessionRouteChangeReason`, the seeds' spelling of ``AudioSession/RouteChangeReason``.
public typealias AudioSessionRouteChangeReason = AudioSession.RouteChangeReason
/// `AVAudioSessionSilenceSecondaryAudioHintType`, the seeds' spelling of ``AudioSession/SilenceSecondaryAudioHintType``.
public typealias AudioSessionSilenceSecondaryAudioHintType = AudioSession.SilenceSecondaryAudioHintType
/// `AVAudioSessionCategoryOptions`, the seeds' spelling of ``AudioSession/CategoryOptions``.
public typealias AudioSessionCategoryOptions = AudioSession.CategoryOptions
/// `AVAudioSessionSetActiveOptions`, the seeds' spelling of ``AudioSession/SetActiveOptions``.
public typealias AudioSessionSetActiveOptions = AudioSession.SetActiveOptions
/// `AVAudioSessionPortOverride`, the seeds' spelling of ``AudioSession/PortOverride``.
public typealias AudioSessionPortOverride = AudioSession.PortOverride

extension Notification.Name {
    /// `AVAudioSessionInterruptionNotification`, the seeds' spelling of ``AudioSession/interruptionNotification``.
    public static let AudioSessionInterruption = AudioSession.interruptionNotification
    /// `AVAudioSessionRouteChangeNotification`, the seeds' spelling of ``AudioSession/routeChangeNotification``.
    public static let AudioSessionRouteChange = AudioSession.routeChangeNotification
    /// `AVAudioSessionSilenceSecondaryAudioHintNotification`, the seeds' spelling of ``AudioSession/silenceSecondaryAudioHintNotification``.
    public static let AudioSessionSilenceSecondaryAudioHint = AudioSession.silenceSecondaryAudioHintNotification
    /// `AVAudioSessionMediaServicesWereLostNotification`, the seeds' spelling of ``AudioSession/mediaServicesWereLostNotification``.
    public static let AudioSessionMediaServicesWereLost = AudioSession.mediaServicesWereLostNotification
    /// `AVAudioSessionMediaServicesWereResetNotification`, the seeds' spelling of ``AudioSession/mediaServicesWereResetNotification``.
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
