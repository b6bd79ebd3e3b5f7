// SPDX-License-Identifier: Apache-2.0

/// How a string goes into JSON, byte by byte: the one rule of the event log and the journal. The
/// quotes around it are the caller's. Nothing is allocated: the journal writes straight into its
/// mapped file.
enum JSONEscaping {
    /// Whether `text` goes into JSON as it is.
    static func needsNoEscape(_ text: String) -> Bool {
        !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// Calls `emit` with each byte of `text` as JSON has it inside quotes.
    @inline(__always)
    static func escape(_ text: String, _ emit: (UInt8) -> Void) {
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                emit(UInt8(ascii: "\\"))
                emit(unit)
            case UInt8(ascii: "\n"): emit(UInt8(ascii: "\\")); emit(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): emit(UInt8(ascii: "\\")); emit(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): emit(UInt8(ascii: "\\")); emit(UInt8(ascii: "t"))
            case ..<0x20:
                for byte in "\\u00".utf8 { emit(byte) }
                emit(hexDigit(unit >> 4))
                emit(hexDigit(unit & 0xF))
            default: emit(unit)
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
