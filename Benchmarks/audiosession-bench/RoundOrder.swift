// SPDX-License-Identifier: Apache-2.0

/// The order in which a run's rigs take their calls: a new order every round, drawn from a fixed seed
/// (two runs take the same orders), so that each rig follows each of the others about as often.
///
/// Starting each round one rig further on, as the runs before did, kept the order around the circle:
/// a rig followed the same rig in every round but the one it started, and whatever that rig's call
/// left behind on the machine weighed on its calls alone.
struct RoundOrder: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64 = 0x5EED_0F_CA11) { state = seed }

    /// The rigs of `group` in this round's order.
    mutating func order(_ group: [Int]) -> [Int] { group.shuffled(using: &self) }

    /// SplitMix64: a small generator whose sequence a seed fixes.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
