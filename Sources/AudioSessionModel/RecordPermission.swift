// SPDX-License-Identifier: Apache-2.0
/// Whether an app may record (`AVAudioSession.RecordPermission`): undetermined until the user decides.
/// A denied app records silence.
public enum RecordPermission: String, Hashable, Sendable, CaseIterable, Codable {
    case undetermined
    case denied
    case granted
}
