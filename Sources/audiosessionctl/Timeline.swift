// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CommandLineSupport
import EventTimeline
import Foundation

extension AudioSessionControl {
    /// `audiosessionctl timeline`: a picture of the last minutes, as SVG, for a bug report.
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Draw what happened to each session as an SVG timeline.",
            discussion: """
                One lane per session: spans while it was active, interrupted, ducked (with the level) or \
                muted by the silent switch or the lock, an arrow from the session that caused each, and \
                route changes as marks. Every span has a title (a tooltip, and what a screen reader reads).
                """)
        @Option(help: "Start: a duration back from now (90s, 10m, 2h) or a time (2026-11-25T13:54:38Z).") var since = PointInTime(argument: "10m")!
        @Option(help: "End: a duration back from now or a time; now by default.") var until: PointInTime?
        @Option(name: .shortAndLong, help: "The SVG file to write; standard output by default.") var output: String?
        @OptionGroup var source: EventSourceOptions

        func run() throws {
            let records = try source.records()
            let end = until?.date ?? Date()
            guard since.date < end else {
                writeToStandardError("audiosessionctl: --since must be before --until\n")
                throw ExitCode(1)
            }
            let timeline = Timeline(records: records, start: since.date, end: end).fitted()
            let svg = TimelineSVG.render(timeline)
            if let output {
                do { try svg.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                    writeToStandardError("audiosessionctl: cannot write \(output): \(error.localizedDescription)\n")
                    throw ExitCode(1)
                }
                writeToStandardError("audiosessionctl: \(timeline.lanes.count) session(s) drawn to \(output)\n")
            } else {
                FileHandle.standardOutput.write(Data(svg.utf8))
            }
        }
    }
}
