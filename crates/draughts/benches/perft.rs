//! Perft benchmarks (divan) of each variant's start position; each run asserts its leaf count so a change of
//! behaviour shows. `cargo bench -p parlor-draughts`; the timed figures of record come from `parlor bench perft`.

use parlor_draughts::{DraughtsVariant, Position, perft};

fn main() {
    divan::main();
}

/// (variant, depth, published leaf count): shallower than `parlor bench perft` so a divan sample stays short.
const CASES: [(DraughtsVariant, u32, u64); 4] = [
    (DraughtsVariant::English, 9, 3_963_680),
    (DraughtsVariant::International, 7, 1_049_442),
    (DraughtsVariant::Russian, 9, 4_570_586),
    (DraughtsVariant::Pool, 9, 4_570_534),
];

#[divan::bench(args = CASES)]
fn start_position(case: (DraughtsVariant, u32, u64)) {
    let (variant, depth, expected) = case;
    let pos = Position::start(variant);
    assert_eq!(perft(divan::black_box(&pos), depth), expected);
}
