// SPDX-License-Identifier: Apache-2.0
import CPulse

/// A fixed number of numbered places for commands in flight, made once, so that a level command costs
/// no allocation of the wrapper's (``PulseContext/send(_:)``): libpulse carries a pointer to the
/// command's place, and its answer is handed to ``PulseContext/onSlotAnswer`` with the place's number.
final class CommandSlots {
    /// What libpulse carries for one command: its context, unretained, and its number.
    struct Slot {
        var owner: Unmanaged<PulseContext>
        var number: Int
    }

    let capacity: Int
    private let slots: UnsafeMutablePointer<Slot>
    /// The numbers free now, taken from the end.
    private var free: ContiguousArray<Int>

    init(owner: PulseContext, capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        for number in 0..<capacity {
            (slots + number).initialize(to: Slot(owner: Unmanaged.passUnretained(owner), number: number))
        }
        free = ContiguousArray((0..<capacity).reversed())
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// A free place and the pointer libpulse is to carry for it; nil when every place is taken.
    func take() -> (number: Int, userdata: UnsafeMutableRawPointer)? {
        guard let number = free.popLast() else { return nil }
        return (number, UnsafeMutableRawPointer(slots + number))
    }

    /// Frees a place: its answer came, or libpulse refused the command.
    func give(back number: Int) { free.append(number) }

    /// Frees every place: the connection ended, and libpulse answers none of its commands.
    func reset() {
        free.removeAll(keepingCapacity: true)
        free.append(contentsOf: (0..<capacity).reversed())
    }

    /// libpulse's answer to a command sent in a place.
    static let callback: pa_context_success_cb_t = { context, success, userdata in
        let slot = userdata!.assumingMemoryBound(to: Slot.self).pointee
        slot.owner.takeUnretainedValue().slotAnswered(slot.number, success != 0 ? nil : PulseError.fromContext(context, "level command"))
    }
}
