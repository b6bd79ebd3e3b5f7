// SPDX-License-Identifier: Apache-2.0

/// The order in which a run's rigs take their calls: a new order every round, drawn from a fixed seed
/// (two runs take the same orders), so that each rig follows each of the others about as often.
///
/// Starting each round one rig further on, as the runs before did, kept the order around the circle:
/// a rig followed the same rig in every round but the one it started, and whatever that rig's call
/// left behind on the machine weighed on its calls alone.
struct RoundOrder {
    private var generator: SplitMix64

    init(seed: UInt64 = 0x5EED_0F_CA11) { generator = SplitMix64(seed: seed) }

    /// The rigs of `group` in this round's order.
    mutating func order(_ group: [Int]) -> [Int] { group.shuffled(using: &generator) }
}
