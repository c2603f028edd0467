//! Positions that the search benchmarks and the tests share (the tests use them without the `tools` feature).

/// The chess positions of `parlor bench search`: the start, well-known test positions of middlegames and endings
/// (Kiwipete and positions 3 to 5 of the Chess Programming Wiki's perft page, and a few of our own).
pub const CHESS_POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/1PN1PN2/P2BQPPP/2R2RK1 w - - 0 13",
    "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40",
];
