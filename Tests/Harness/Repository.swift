// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The repository the tests and the benchmarks are built from.
public enum Repository {
    /// Its top folder, where `Package.swift` is (this file is `Tests/Harness/Repository.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
}
