// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import Foundation
import Glibc

extension Benchmarks {
    /// The journal's share of an interruption, in this process: writing one entry into the mapped
    /// journal (a stream's entry replaced, as a duck that becomes a mute does), against one `pwrite`
    /// of a slot's bytes, the least a journal written with system calls pays per entry.
    static func journalWrite(rounds: Int) throws -> [ReportLine] {
        let directory = NSTemporaryDirectory() + "journal-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        let levels = StreamLevels(volume: ChannelVolumes([0x10000, 0x10000]), mute: false)
        let entries = [true, false].map { muted in
            PolicyAction.journalWrite(JournalEntry(
                stream: StreamID(.output, 7), restoreKey: "sink-input-by-application-name:bench-music", original: levels,
                applied: StreamLevels(volume: levels.volume, mute: muted)))
        }
        let descriptor = open(directory + "/pwrite", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: 1024)
        var mapped = Samples(), written = Samples()
        for round in 0..<rounds {
            let start = ContinuousClock.now
            journal.apply(entries[round % 2])
            mapped.append(ContinuousClock.now - start)
            let writeStart = ContinuousClock.now
            _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            written.append(ContinuousClock.now - writeStart)
        }
        return [ReportLine(name: "journal entry written (mapped file), p50", figure: mapped.median.formatted,
                           baseline: written.median.formatted + " one pwrite of a slot", ratio: mapped.median / written.median,
                           budget: "no system call")]
    }
}
