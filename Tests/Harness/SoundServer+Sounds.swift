// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Sound to play, for tests of what the bridge hears.
extension SoundServer {
    /// Writes raw stereo 48 kHz 16-bit audio (what ``play(app:role:properties:device:record:file:)`` plays),
    /// or with `wave` a WAV file of it, made of `segments`: a 440 Hz tone at a third of full scale where
    /// `sounding`, digital silence elsewhere, each for its seconds. Returns the file's path.
    public func writeSound(_ segments: [(sounding: Bool, seconds: Double)], name: String, wave: Bool = false) throws -> String {
        let path = root + "/\(name)" + (wave ? ".wav" : ".raw")
        var samples: [Int16] = []
        for segment in segments {
            let frames = Int(segment.seconds * 48_000)
            samples.reserveCapacity(samples.count + 2 * frames)
            for frame in 0..<frames {
                let value = segment.sounding ? Int16(10_000 * sin(2 * Double.pi * 440 * Double(frame) / 48_000)) : 0
                samples.append(value)
                samples.append(value)
            }
        }
        let data = samples.withUnsafeBytes { Data($0) }
        try ((wave ? Self.waveHeader(dataBytes: UInt32(data.count)) : Data()) + data).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `seconds` of stereo 48 kHz 16-bit silence as a WAV file (for `pw-play`); returns its path.
    public func writeSilence(seconds: Int = 60) throws -> String {
        let path = root + "/silence-\(seconds)s.wav"
        try (Self.waveHeader(dataBytes: UInt32(4 * 48000 * seconds)) + Data(count: 4 * 48000 * seconds))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The header of a WAV file of stereo 48 kHz 16-bit samples, `dataBytes` of them.
    static func waveHeader(dataBytes bytes: UInt32) -> Data {
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var wave = Data("RIFF".utf8) + le(36 + bytes) + Data("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(1))
        wave += le(UInt16(2)) + le(UInt32(48000)) + le(UInt32(4 * 48000)) + le(UInt16(4)) + le(UInt16(16))
        return wave + Data("data".utf8) + le(bytes)
    }
}
