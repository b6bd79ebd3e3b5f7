// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The engine and the vocabulary stay pure (DESIGN.md §3): no C module, no logging, no I/O.
@Suite("The pure core stays pure")
struct PurityTests {
    static let sourceRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file of the target, in every folder below it, by its path inside the target.
    static func sources(of target: String) throws -> [(name: String, text: String)] {
        let folder = sourceRoot.appendingPathComponent(target)
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: folder.path) as [String]?)
        return try paths.filter { $0.hasSuffix(".swift") }.sorted()
            .map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("the files of the engine's folders are read, not only its top folder")
    func readsEveryFolder() throws {
        let files = try Self.sources(of: "AudioPolicy").map(\.name)
        #expect(files.contains { $0.hasPrefix("PolicyFiles/") }, "\(files)")
        #expect(files.contains("PolicyEngine.swift"))
    }

    @Test("AudioPolicy and AudioSessionModel import only each other", arguments: ["AudioPolicy", "AudioSessionModel"])
    func importsOnlyTheModel(target: String) throws {
        let files = try Self.sources(of: target)
        #expect(!files.isEmpty)
        for (name, text) in files {
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
                .map { $0.dropFirst("import ".count).trimmingCharacters(in: .whitespaces) }
            for module in imports {
                #expect(module == "AudioSessionModel", "\(target)/\(name) imports \(module)")
            }
        }
    }

    @Test("no file, socket, clock or console use in the pure core", arguments: ["AudioPolicy", "AudioSessionModel"])
    func noInputOutput(target: String) throws {
        let forbidden = ["FileManager", "fopen", "open(", "socket", "Date()", "ContinuousClock", "DispatchTime",
                         "clock_gettime", "print(", "Logger", "read(", "write("]
        for (name, text) in try Self.sources(of: target) {
            for word in forbidden {
                #expect(!text.contains(word), "\(target)/\(name) uses \(word)")
            }
        }
    }
}
