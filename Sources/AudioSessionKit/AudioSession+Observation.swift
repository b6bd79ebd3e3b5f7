// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

/// The key of ``AudioSession/propertyDidChangeNotification``'s userInfo: the Swift name of the
/// property that changed (`"outputVolume"`, `"currentRoute"`, …).
public let AudioSessionPropertyNameKey = "AudioSessionPropertyNameKey"

/// Observing the session's properties, as apps observe AVAudioSession with key-value observing:
/// the bridge's PropertiesChanged becomes a notification and a stream of values per property.
extension AudioSession {
    /// Posted (object: the session, on the library's notification queue) once per property that the
    /// bridge changed, with its Swift name under ``AudioSessionPropertyNameKey``.
    public static let propertyDidChangeNotification = Notification.Name("AudioSessionPropertyDidChangeNotification")

    /// The observable properties and the bridge's properties they are read from (never changed:
    /// key paths are not marked Sendable, though they hold no state).
    nonisolated(unsafe) static let observableProperties: [(keyPath: PartialKeyPath<AudioSession>, swiftName: String, busName: String)] = [
        (\AudioSession.outputVolume, "outputVolume", "OutputVolume"),
        (\AudioSession.currentRoute, "currentRoute", "CurrentRoute"),
        (\AudioSession.availableInputs, "availableInputs", "AvailableInputs"),
        (\AudioSession.isInputAvailable, "isInputAvailable", "IsInputAvailable"),
        (\AudioSession.preferredInput, "preferredInput", "PreferredInput"),
        (\AudioSession.inputGain, "inputGain", "InputGain"),
        (\AudioSession.isInputGainSettable, "isInputGainSettable", "IsInputGainSettable"),
        (\AudioSession.isOtherAudioPlaying, "isOtherAudioPlaying", "IsOtherAudioPlaying"),
        (\AudioSession.secondaryAudioShouldBeSilencedHint, "secondaryAudioShouldBeSilencedHint",
         "SecondaryAudioShouldBeSilencedHint"),
        (\AudioSession.sampleRate, "sampleRate", "SampleRate"),
        (\AudioSession.preferredSampleRate, "preferredSampleRate", "PreferredSampleRate"),
        (\AudioSession.ioBufferDuration, "ioBufferDuration", "IOBufferDuration"),
        (\AudioSession.preferredIOBufferDuration, "preferredIOBufferDuration", "PreferredIOBufferDuration"),
        (\AudioSession.outputLatency, "outputLatency", "OutputLatency"),
        (\AudioSession.inputLatency, "inputLatency", "InputLatency"),
        (\AudioSession.outputNumberOfChannels, "outputNumberOfChannels", "OutputNumberOfChannels"),
        (\AudioSession.inputNumberOfChannels, "inputNumberOfChannels", "InputNumberOfChannels"),
        (\AudioSession.prefersNoInterruptionsFromSystemAlerts, "prefersNoInterruptionsFromSystemAlerts",
         "PrefersNoInterruptionsFromSystemAlerts"),
        (\AudioSession.recordPermission, "recordPermission", "RecordPermission"),
    ]

    static func swiftNames(ofBusProperty busName: String) -> [String] {
        observableProperties.filter { $0.busName == busName }.map(\.swiftName)
    }

    /// The values a property takes, each time the bridge changes it (not the current value: read
    /// the property for that). The stream ends when the session goes; a key path that is not one of
    /// the bridge's properties (`category`, which only the app changes) ends at once.
    public func changes<Value>(of keyPath: KeyPath<AudioSession, Value>) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream()
        guard let busName = Self.observableProperties.first(where: { $0.keyPath == keyPath })?.busName else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        let yield = Yield(continuation: continuation, read: { [weak self] in self?[keyPath: keyPath] })
        lock.withLock { propertyObservers[busName, default: [:]][id] = { yield.send() } }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.propertyObservers[busName]?.removeValue(forKey: id) }
        }
        return stream
    }

    /// Reads the property when told and yields it; its stream ends when the session lets it go.
    private final class Yield<Value>: @unchecked Sendable {
        let continuation: AsyncStream<Value>.Continuation
        let read: () -> Value?
        init(continuation: AsyncStream<Value>.Continuation, read: @escaping () -> Value?) {
            self.continuation = continuation
            self.read = read
        }
        deinit { continuation.finish() }
        func send() { if let value = read() { continuation.yield(value) } }
    }
}
