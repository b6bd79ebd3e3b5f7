// SPDX-License-Identifier: Apache-2.0
import AudioPolicy

/// Writes one journal entry as JSON straight into its slot of the mapped file: bytes into memory, no
/// string built, no allocation, no system call.
///
/// A slot is ``width`` bytes: a JSON value (an entry, or `null`), spaces, the separator of the array
/// (`,`, or `]` for the last slot) and a newline. So the file reads as a JSON array, and each line
/// reads on its own: a slot torn by a killed bridge costs only itself.
struct JournalSlot {
    /// The bytes of one slot, its separator and newline included.
    static let width = 1024
    /// Where the value may go: before the separator and the newline.
    static let valueCapacity = width - 2

    let base: UnsafeMutableRawPointer
    private var position = 0
    private var overflowed = false

    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    /// Writes `null` and padding, leaving the separator alone.
    static func clear(_ base: UnsafeMutableRawPointer) {
        var slot = JournalSlot(base)
        slot.append("null")
        slot.pad()
    }

    /// Writes `entry` with its sequence number; false (and the slot unchanged in meaning: `null`)
    /// when it does not fit even without its restore key.
    static func write(_ entry: JournalEntry, sequence: UInt64, to base: UnsafeMutableRawPointer) -> Bool {
        if tryWrite(entry, sequence: sequence, to: base, withKey: true)
            || tryWrite(entry, sequence: sequence, to: base, withKey: false)
        {
            return true
        }
        clear(base)
        return false
    }

    private static func tryWrite(_ entry: JournalEntry, sequence: UInt64, to base: UnsafeMutableRawPointer,
                                 withKey: Bool) -> Bool {
        var slot = JournalSlot(base)
        slot.encode(entry, sequence: sequence, withKey: withKey)
        guard !slot.overflowed else { return false }
        slot.pad()
        return true
    }

    /// A fresh slot: `null`, padding, `separator` and a newline.
    static func initialize(_ base: UnsafeMutableRawPointer, last: Bool) {
        clear(base)
        setSeparator(base, last: last)
        base.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: width - 1, as: UInt8.self)
    }

    static func setSeparator(_ base: UnsafeMutableRawPointer, last: Bool) {
        base.storeBytes(of: UInt8(ascii: last ? "]" : ","), toByteOffset: width - 2, as: UInt8.self)
    }

    private mutating func encode(_ entry: JournalEntry, sequence: UInt64, withKey: Bool) {
        append("{\"seq\":")
        number(sequence)
        append(",\"direction\":\"")
        append(entry.stream.direction == .output ? "output" : "input")
        append("\",\"index\":")
        number(UInt64(entry.stream.index))
        if withKey, let key = entry.restoreKey {
            append(",\"restoreKey\":")
            quoted(key)
        }
        append(",\"original\":")
        levels(entry.original)
        append(",\"applied\":")
        levels(entry.applied)
        append("}")
    }

    private mutating func levels(_ levels: StreamLevels) {
        append("{\"volume\":[")
        for (index, value) in levels.volume.values.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            number(UInt64(value))
        }
        append("],\"mute\":")
        append(levels.mute ? "true" : "false")
        append("}")
    }

    private mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        JSONEscaping.escape(text) { byte($0) }
        byte(UInt8(ascii: "\""))
    }

    private mutating func number(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for unit in $0 { byte(unit) } }
    }

    private mutating func byte(_ unit: UInt8) {
        guard position < Self.valueCapacity else { return overflowed = true }
        base.storeBytes(of: unit, toByteOffset: position, as: UInt8.self)
        position += 1
    }

    /// Spaces up to the separator.
    private mutating func pad() {
        if position < Self.valueCapacity {
            (base + position).initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "), count: Self.valueCapacity - position)
        }
    }
}
