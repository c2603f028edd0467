//! Every tunable number of the searches, the levels and the clock, in one place.
//!
//! Centipawns (cp) are hundredths of a pawn. Depths are in plies. A change here changes play: run
//! `parlor bench search` (node counts) and a `parlor match` before and after.

use crate::level::Level;
use parlor_game::{DraughtsVariant, GameKind};
use std::time::Duration;

// ---------------------------------------------------------------------------------------------------------------
// Clock: how much of the table's clock one move may use (see `clock.rs`).
// ---------------------------------------------------------------------------------------------------------------

/// Time kept back from every budget for the server, the network and the unwinding of the search.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);
/// With a fixed time per move, the part of it kept back (at most [`MOVE_OVERHEAD`]), in 1/1000.
pub const MOVETIME_OVERHEAD_PERMILLE: u32 = 20;
/// Without `moves_to_go`, the clock is spread as if this many moves remained.
pub const MOVES_HORIZON: u32 = 30;
/// Part of the increment added to each move's share, in 1/1000.
pub const INCREMENT_PERMILLE: u32 = 800;
/// Soft limit (do not start a new iteration after it) as a part of the move's share, in 1/1000.
pub const SOFT_PERMILLE: u32 = 600;
/// Hard limit (abort the search) as a multiple of the move's share, in 1/1000.
pub const HARD_PERMILLE: u32 = 2500;
/// The hard limit never exceeds this part of the remaining clock, in 1/1000.
pub const HARD_MAX_OF_REMAINING_PERMILLE: u32 = 250;
/// The per-move cap of a chess table when the caller gives none: the site's chess clock allows 60 s per move.
pub const CHESS_DEFAULT_CAP: Duration = Duration::from_secs(60);
/// The default chess clock of a table: 15 minutes each.
pub const CHESS_DEFAULT_CLOCK: Duration = Duration::from_secs(15 * 60);
/// Nodes between two looks at the clock and the stop flag (a power of two). At about 1 µs per node this is
/// about 1 ms, well inside the 20 ms tolerance even on a loaded machine.
pub const NODES_PER_CLOCK_CHECK: u64 = 1024;

// ---------------------------------------------------------------------------------------------------------------
// Levels.
// ---------------------------------------------------------------------------------------------------------------

/// How a level plays: depth limit, random noise on the root moves, and the share of the time budget it uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// Deepest iteration of the iterative deepening.
    pub max_depth: i32,
    /// Each root move gets a fixed random bonus in `0..=noise` cp for this search: the level picks among moves
    /// that look about as good, like a person who does not calculate everything.
    pub noise: i32,
    /// Quiescence search (captures at the horizon). Without it the engine misses simple recaptures; in
    /// four-player chess it then also leaves out the pieces left hanging, so it sees what its own move takes and
    /// nothing after.
    pub quiescence: bool,
    /// Part of the time budget the level may use, in 1/1000.
    pub time_permille: u32,
    /// Threads searching together (lazy SMP, chess only), at most the machine's cores. Searches to a fixed
    /// depth use one, so that their node counts stay reproducible.
    pub threads: usize,
    /// Whether the evaluation adds the network's correction (`chess/nn.rs`; `draughts/nn.rs`, one per variant).
    pub network: bool,
    /// Draughts, International: whether the evaluation also adds the pattern weights' correction
    /// (`draughts/patterns.rs`).
    pub patterns: bool,
    /// Contempt, cp (chess only): a draw counts this much against the side the engine plays for, so it keeps
    /// playing an equal position rather than repeat it, and gives the opponent the chances to go wrong.
    pub contempt: i32,
    /// Draughts: plies of a capture search line in which a quiet position whose opponent threatens to take is not
    /// evaluated but searched one move further (every move, each answered by the capture search).
    pub threats: u32,
    /// Each root move is overlooked (not considered at all) with this chance in 1/1000, at least one move kept:
    /// the lowest level misses a capture or a mate in one now and then, as a beginner does, without ever playing
    /// a move at random.
    pub overlook_permille: u32,
}

impl LevelParams {
    /// Sets the field `name` (spelt as in this struct) from text, for a match that weighs a change of one
    /// (`parlor match --a hard --a-option threats=0`).
    ///
    /// # Errors
    /// A message naming the field or the value that is not understood.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn read<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
            value
                .parse()
                .map_err(|_| format!("{name}: `{value}` is not a valid value"))
        }
        match name {
            "max_depth" => self.max_depth = read(name, value)?,
            "noise" => self.noise = read(name, value)?,
            "quiescence" => self.quiescence = read(name, value)?,
            "time_permille" => self.time_permille = read(name, value)?,
            "threads" => self.threads = read(name, value)?,
            "network" => self.network = read(name, value)?,
            "patterns" => self.patterns = read(name, value)?,
            "contempt" => self.contempt = read(name, value)?,
            "threats" => self.threats = read(name, value)?,
            "overlook_permille" => self.overlook_permille = read(name, value)?,
            _ => return Err(format!("`{name}` is not a level parameter")),
        }
        Ok(())
    }
}

/// A level's parameters in a game.
pub const fn level_params(game: GameKind, level: Level) -> LevelParams {
    match game {
        GameKind::Chess => chess_level(level),
        GameKind::Draughts(variant) => draughts_level(variant, level),
        GameKind::Chess4 => chess4_level(level),
    }
}

/// A level's parameters: depth, noise and quiescence; the rest as most levels have them.
const fn level(max_depth: i32, noise: i32, quiescence: bool) -> LevelParams {
    LevelParams {
        max_depth,
        noise,
        quiescence,
        time_permille: 1000,
        threads: 1,
        network: false,
        patterns: false,
        contempt: 0,
        threats: 0,
        overlook_permille: 0,
    }
}

/// The strongest search of a game, on one thread: as deep as `time_permille` of the budget allows.
const fn full(time_permille: u32) -> LevelParams {
    LevelParams {
        time_permille,
        ..level(MAX_DEPTH, 0, true)
    }
}

/// The share chess level 7 thinks: at 30% it stands about 200 below level 8 against Stockfish, at 20% about 330
/// (docs/results/2026-12-07-chess-ladder-respaced.md).
pub const CHESS_LEVEL7_TIME_PERMILLE: u32 = 300;
/// The share English draughts level 7 thinks: at 30% it stood about 340 above a level 6 of eight plies and 90
/// below level 8; at 5% about 100 above level 6 (nine plies) and 230 below level 8
/// (docs/results/2026-12-06-draughts-ladder-retuned.md).
pub const ENGLISH_LEVEL7_TIME_PERMILLE: u32 = 50;
/// The share Russian and Pool level 7 thinks (docs/results/2026-12-06-draughts-variant-ladders.md).
pub const FLYING_8X8_LEVEL7_TIME_PERMILLE: u32 = 100;
/// The share International level 6 thinks (docs/results/2026-12-06-draughts-variant-ladders.md).
pub const INTERNATIONAL_LEVEL6_TIME_PERMILLE: u32 = 20;
/// The share International level 7 thinks (docs/results/2026-12-06-draughts-variant-ladders.md).
pub const INTERNATIONAL_LEVEL7_TIME_PERMILLE: u32 = 100;
/// The chance draughts level 1 overlooks each root move (see [`LevelParams::overlook_permille`]).
pub const LEVEL1_OVERLOOK_PERMILLE: u32 = 250;
/// The chance chess level 1 overlooks each root move: with noise 0-150, 1 in 10 puts it about 200 Elo below
/// Stockfish's Skill Level 0 at 100 ms, where the ladder starts (1 in 4 with noise 0-350: about 600 below).
pub const CHESS_LEVEL1_OVERLOOK_PERMILLE: u32 = 100;

/// The network's correction of the evaluation is kept within +-this (cp): it is trained on quiet positions of
/// games, and the search also reaches positions unlike any of them.
pub const NETWORK_MAX: i32 = 300;
/// What the network adds for the side to move whatever the position (cp): it learnt from Stockfish's depth-5 scores,
/// which favour the side to move (an odd depth ends on its move), about 83 cp on average over the evaluation's
/// own [`TEMPO`]. The engine takes this much off its correction, so that the side to move keeps a bonus of about
/// 25 cp in all.
pub const NETWORK_TEMPO: i32 = 70;

/// Contempt of a hard chess search, cp (see [`LevelParams::contempt`]).
pub const CHESS_HARD_CONTEMPT: i32 = 25;

/// Threads of a hard chess search (lazy SMP: they share the transposition table), at most the cores.
pub const CHESS_HARD_THREADS: usize = 2;

/// Chess levels, weakest first (levels 2, 5 and 8 are easy, medium and hard). 1: one ply plus captures, noise up
/// to half a minor piece and overlooked moves: it falls for forks and two-move tactics, gives pawns away and now and
/// then misses a capture or a mate in one. 2 (easy): two plies, noise below a pawn. 3: five plies with the noise
/// of a pawn. 4: six plies, less noise. 5 (medium): seven plies with the network. 6: eight plies, little noise.
/// 7: everything 30% of the time allows, one thread. 8 (hard): everything the time allows, on two threads, with
/// contempt. Spaced about 150-250 Elo apart against Stockfish's Skill Levels at 100 ms a move (docs/ai.md).
pub const CHESS_LEVELS: [LevelParams; 8] = [
    LevelParams {
        overlook_permille: CHESS_LEVEL1_OVERLOOK_PERMILLE,
        ..level(1, 150, true)
    },
    level(2, 80, true),
    level(5, 100, true),
    level(6, 60, true),
    LevelParams {
        network: true,
        ..level(7, 55, true)
    },
    LevelParams {
        network: true,
        ..level(8, 30, true)
    },
    LevelParams {
        network: true,
        ..full(CHESS_LEVEL7_TIME_PERMILLE)
    },
    LevelParams {
        threads: CHESS_HARD_THREADS,
        network: true,
        contempt: CHESS_HARD_CONTEMPT,
        ..full(1000)
    },
];

/// A chess level's parameters.
pub const fn chess_level(level: Level) -> LevelParams {
    CHESS_LEVELS[level.index()]
}

// ---------------------------------------------------------------------------------------------------------------
// Search (alpha-beta family), shared vocabulary.
// ---------------------------------------------------------------------------------------------------------------

/// Deepest nominal depth of an iteration.
pub const MAX_DEPTH: i32 = 64;
/// Longest line searched (plies from the root, extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// A checkmate now, from the side that delivers it; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// Transposition table entries (a power of two), for chess: 2^19 entries of 16 bytes (8 MB).
pub const CHESS_TT_ENTRIES: usize = 1 << 19;
/// The smallest chess table (64 KB), what a new engine starts with.
pub const TT_MIN_ENTRIES: usize = 1 << 12;
/// Table entries allowed per millisecond of hard budget: filling the table is part of the search's time (about
/// 1 ms per MB on a loaded machine), so it must stay a small part of the budget: 6000 entries (94 KB) per ms
/// (8 MB from 88 ms; tables never shrink, so a game pays for it once).
pub const TT_ENTRIES_PER_MS: usize = 6000;
/// A table entry counts this many plies less, for a new entry that wants its slot, for each search since it
/// was stored.
pub const TT_AGE_PENALTY: i32 = 2;

/// First depth searched with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Half-width of the first aspiration window, cp; doubled after each failure.
pub const ASPIRATION_WINDOW: i32 = 25;

/// Null-move pruning from this depth on.
pub const NULL_MIN_DEPTH: i32 = 3;
/// Null-move reduction: `NULL_BASE + depth / NULL_DIVISOR`.
pub const NULL_BASE: i32 = 3;
/// See [`NULL_BASE`].
pub const NULL_DIVISOR: i32 = 6;

/// Reverse futility pruning (static eval far above beta) up to this depth.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility margin per ply of depth, cp.
pub const RFP_MARGIN: i32 = 80;
/// Futility pruning of quiet moves (static eval far below alpha) up to this depth.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Futility margin: `FUTILITY_BASE + FUTILITY_PER_DEPTH * depth`, cp.
pub const FUTILITY_BASE: i32 = 100;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// Late-move pruning: at depth d, quiet moves after `LMP_BASE + d * d` are skipped (d up to this).
pub const LMP_MAX_DEPTH: i32 = 4;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 4;

/// Internal iterative reduction: a node this deep without a table move is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Null move: one more ply of reduction per this many cp the static evaluation stands above beta (at most
/// [`NULL_EVAL_MAX`] more).
pub const NULL_EVAL_DIVISOR: i32 = 200;
/// See [`NULL_EVAL_DIVISOR`].
pub const NULL_EVAL_MAX: i32 = 3;
/// Static exchange pruning in the main search up to this depth: a capture losing more than
/// `SEE_CAPTURE_MARGIN * depth`, or a quiet move losing more than `SEE_QUIET_MARGIN * depth`, is skipped.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// See [`SEE_PRUNE_MAX_DEPTH`], cp per ply.
pub const SEE_CAPTURE_MARGIN: i32 = 90;
/// See [`SEE_PRUNE_MAX_DEPTH`], cp per ply.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// Chess quiet-move history is kept within +-this (gravity: a bonus shrinks as the entry nears the bound).
pub const CHESS_HISTORY_MAX: i32 = 16_384;
/// A cut by a quiet move moves its history entries (its own and its continuation entries) by this times the depth
/// squared, at most [`QUIET_HISTORY_BONUS_MAX`] (and the quiet moves tried before it by as much the other way).
/// Until the twenty-fifth session the bonus was the depth squared alone, so that entries stayed in the hundreds
/// and the history's part in the reductions ([`LMR_HISTORY_DIVISOR`]) hardly ever came into play.
pub const QUIET_HISTORY_BONUS: i32 = 32;
/// See [`QUIET_HISTORY_BONUS`].
pub const QUIET_HISTORY_BONUS_MAX: i32 = 1600;
/// History pruning: up to this depth, at a node that is not a PV node and not in check, a quiet move that gives
/// no check and whose history score (its own and continuation entries) is below `-HISTORY_PRUNE_MARGIN * depth`
/// is not searched.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 3;
/// See [`HISTORY_PRUNE_MAX_DEPTH`].
pub const HISTORY_PRUNE_MARGIN: i32 = 4000;
/// Capture history counts this many times less than the victim's value (times 16) in the order of captures.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 4;
/// A cut by a capture moves its capture-history entry by this times (depth + 1) squared, at most
/// [`CAPTURE_HISTORY_BONUS_MAX`] (and the captures tried before it by as much the other way).
pub const CAPTURE_HISTORY_BONUS: i32 = 16;
/// See [`CAPTURE_HISTORY_BONUS`].
pub const CAPTURE_HISTORY_BONUS_MAX: i32 = 1200;
/// Late-move reductions shrink by one ply per this much quiet-move history (and grow for negative history).
pub const LMR_HISTORY_DIVISOR: i32 = 8_000;
/// Correction history: slots per side to move (a power of two), indexed by a hash of the pawns.
pub const CORRECTION_ENTRIES: usize = 1 << 14;
/// Correction history entries are kept in 1/this cp.
pub const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, and the largest difference one search result teaches, cp.
pub const CORRECTION_MAX_DIFF: i32 = 64;
/// Singular extensions from this depth on.
pub const SINGULAR_MIN_DEPTH: i32 = 8;
/// The other moves must fall this many cp per ply of depth short of the table's score.
pub const SINGULAR_MARGIN: i32 = 2;
/// Late-move reductions apply from this depth on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves after this many (the first ones are searched at full depth).
pub const LMR_MIN_MOVES: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` (the shape used by most engines since
/// Stockfish and Fruit; the constants are ours), in hundredths.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// Late quiet moves at the root are reduced this many plies less than the same moves inside the tree (the
/// twenty-fourth session; with ProbCut, +22 +- 19 Elo in 800 games of self-play at 20 ms a move).
pub const ROOT_LMR_LESS: i32 = 1;
/// ProbCut from this depth on (a non-PV node, not in check).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut's bound: a capture must hold this many cp above beta.
pub const PROBCUT_MARGIN: i32 = 200;
/// ProbCut verifies a capture with a search this many plies shallower than the node's.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Moves picked one at a time (selection sort) at a node before the rest of its moves are sorted at once.
pub const ORDER_SELECTION_PICKS: usize = 3;
/// Quiescence: captures whose static exchange loses material are skipped.
pub const QS_SEE_MARGIN: i32 = 0;
/// Delta pruning in quiescence: a capture that cannot lift the score within this of alpha is skipped, cp.
pub const DELTA_MARGIN: i32 = 200;
/// Check extensions stop beyond this many plies from the root (they could otherwise run away).
pub const CHECK_EXTENSION_MAX_PLY: usize = 64;

/// History bonus for a quiet move that caused a cutoff: `depth * depth`, capped here.
pub const HISTORY_MAX: i32 = 16_000;

/// Draw score before contempt ([`LevelParams::contempt`]): a draw is worth nothing to either side.
pub const DRAW: i32 = 0;

// ---------------------------------------------------------------------------------------------------------------
// Chess evaluation (see `chess/eval.rs`; the piece-square tables live there, written as boards).
// ---------------------------------------------------------------------------------------------------------------

/// Piece values in the middlegame, cp: pawn, knight, bishop, rook, queen, king.
pub const MG_VALUE: [i32; 6] = [94, 319, 341, 471, 957, 0];
/// Piece values in the endgame, cp.
pub const EG_VALUE: [i32; 6] = [123, 295, 318, 532, 970, 0];
/// Phase weight of each piece (knight 1, bishop 1, rook 2, queen 4; 24 for the full set).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the full set of pieces.
pub const PHASE_MAX: i32 = 24;
/// Values used for move ordering and the static exchange evaluation, cp.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Bishop pair, (middlegame, endgame) cp.
pub const BISHOP_PAIR: (i32, i32) = (35, 57);
/// Mobility per reachable square not attacked by enemy pawns, (mg, eg) cp, for knight, bishop, rook, queen.
pub const MOBILITY: [(i32, i32); 4] = [(6, 0), (5, 4), (4, 3), (2, 0)];
/// Mobility counts are centred on these numbers of squares (knight, bishop, rook, queen).
pub const MOBILITY_CENTRE: [i32; 4] = [4, 6, 6, 12];
/// Passed pawn by rank from its own side (index 0 = rank 1), (mg, eg) cp.
pub const PASSED: [(i32, i32); 8] = [
    (0, 0),
    (-9, -21),
    (-12, -14),
    (-2, 18),
    (17, 41),
    (32, 62),
    (50, 62),
    (0, 0),
];
/// Doubled pawn (each extra pawn on a file), (mg, eg) cp.
pub const DOUBLED: (i32, i32) = (-13, -28);
/// Isolated pawn, (mg, eg) cp.
pub const ISOLATED: (i32, i32) = (-6, -6);
/// Rook on a file without pawns, on a file with only enemy pawns, (mg, eg) cp.
pub const ROOK_OPEN: (i32, i32) = (33, 1);
/// See [`ROOK_OPEN`].
pub const ROOK_HALF_OPEN: (i32, i32) = (13, 24);
/// Per own pawn in the three squares in front of a king that stayed home (shield), (mg, eg) cp.
pub const KING_SHIELD: (i32, i32) = (7, -9);
/// An enemy knight, bishop, rook or queen attacked by our pawn, (mg, eg) cp. This and the weights below were
/// tuned from zero by `chess/tune.rs`; `eval::feature` says what each counts.
pub const THREAT_BY_PAWN: (i32, i32) = (37, 17);
/// An enemy rook or queen attacked by our knight or bishop, (mg, eg) cp.
pub const THREAT_BY_MINOR: (i32, i32) = (29, 11);
/// An enemy queen attacked by our rook, (mg, eg) cp.
pub const THREAT_BY_ROOK: (i32, i32) = (14, 2);
/// A passed pawn with its next square empty, per rank from its side, (mg, eg) cp.
pub const PASSED_FREE: (i32, i32) = (-4, 8);
/// A passed pawn, per step the enemy king is farther than ours from the square in front of it, (mg, eg) cp.
pub const PASSED_KINGS: (i32, i32) = (-2, 15);
/// A pawn defended by a pawn or with a pawn beside it, (mg, eg) cp.
pub const CONNECTED: (i32, i32) = (1, -5);
/// A rook on the seventh rank, (mg, eg) cp.
pub const ROOK_SEVENTH: (i32, i32) = (1, 2);
/// A knight or bishop on ranks 4-6 defended by a pawn, (mg, eg) cp.
pub const OUTPOST: (i32, i32) = (5, 15);
/// Per file at or next to our king without a pawn of ours, (mg, eg) cp.
pub const KING_OPEN_FILE: (i32, i32) = (-17, 1);
/// An enemy knight, bishop, rook or queen we attack and it does not defend, (mg, eg) cp.
pub const HANGING: (i32, i32) = (6, 9);
/// Per attack unit on the squares next to the enemy king (the linear part; see [`KING_ATTACK_SCALE`]), (mg, eg) cp.
pub const KING_ATTACK: (i32, i32) = (0, 3);
/// Per square from which one of our pieces could check the enemy king and the enemy does not attack, (mg, eg) cp.
pub const SAFE_CHECK: (i32, i32) = (24, 16);
/// Per backward pawn, (mg, eg) cp.
pub const BACKWARD: (i32, i32) = (-7, -5);
/// Per connected pawn and rank from its side, (mg, eg) cp (on top of [`CONNECTED`]).
pub const CONNECTED_RANK: (i32, i32) = (4, 3);
/// Per square next to our king attacked by the enemy and not defended by our pawns, (mg, eg) cp.
pub const KING_ZONE_WEAK: (i32, i32) = (-2, 8);
/// Per enemy pawn storming our king (files next to it, our third to fifth rank), (mg, eg) cp.
pub const PAWN_STORM: (i32, i32) = (2, 8);
/// Per pawn of ours on the squares of one of our bishops' colour, per bishop, (mg, eg) cp.
pub const BISHOP_PAWNS: (i32, i32) = (-1, -5);
/// Per square of space (files c-f, our ranks 2-4, behind our pawns, not attacked by enemy pawns), (mg, eg) cp.
pub const SPACE: (i32, i32) = (-2, -3);
/// Per knight or bishop with a pawn of ours right in front of it, (mg, eg) cp.
pub const MINOR_BEHIND_PAWN: (i32, i32) = (7, 2);
/// Attack units per square next to the enemy king attacked by a knight, bishop, rook, queen.
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// Middlegame bonus for attacking the king: `units^2 * KING_ATTACK_SCALE / 100` once two or more pieces take
/// part, at most [`KING_ATTACK_MAX`] (grows faster than the number of attackers, as attacks do).
pub const KING_ATTACK_SCALE: i32 = 30;
/// See [`KING_ATTACK_SCALE`].
pub const KING_ATTACK_MAX: i32 = 500;
/// Side to move bonus, cp.
pub const TEMPO: i32 = 12;
/// Mop-up (a lone king against a winning side): per step of the lone king from the centre, and per step the
/// kings are closer, cp. It drives a won ending to mate.
pub const MOPUP_CENTRE: i32 = 10;
/// See [`MOPUP_CENTRE`].
pub const MOPUP_CLOSE: i32 = 4;

// ---------------------------------------------------------------------------------------------------------------
// Draughts (all four variants; see `draughts/`). Scores are in hundredths of a man.
// ---------------------------------------------------------------------------------------------------------------

/// Draughts level 1 in every variant: two plies with noise of a man and overlooked moves, so it gives men away
/// and misses the better capture now and then. A one-ply level 1 stood 220-370 Elo below level 2.
const DRAUGHTS_LEVEL1: LevelParams = LevelParams {
    overlook_permille: LEVEL1_OVERLOOK_PERMILLE,
    ..level(2, 100, true)
};

/// English draughts levels, weakest first (levels 2, 5 and 8 are easy, medium and hard). 1: see
/// [`DRAUGHTS_LEVEL1`]. 2 (easy): two plies plus the forced captures, with noise, so it sees a piece hanging now
/// but walks into two-move shots. 3: three plies. 4: four plies. 5 (medium): six plies, a little noise. 6: nine
/// plies. 7: everything 5% of the time allows. 8 (hard): everything the time allows, with the network. Spaced by
/// self-play (docs/ai.md).
pub const ENGLISH_LEVELS: [LevelParams; 8] = [
    DRAUGHTS_LEVEL1,
    level(2, 40, true),
    level(3, 30, true),
    level(4, 20, true),
    level(6, 15, true),
    level(9, 5, true),
    full(ENGLISH_LEVEL7_TIME_PERMILLE),
    LevelParams {
        network: true,
        ..full(1000)
    },
];

/// Russian and Pool levels (8x8, flying kings): as English's up to level 3; 4: four plies without noise; 5
/// (medium): six plies; 6: eight plies; 7: 10% of the time; 8 (hard): all of it, with the variant's network.
/// With flying kings each ply is worth more than in English, so the fixed depths are closer together.
pub const FLYING_8X8_LEVELS: [LevelParams; 8] = [
    DRAUGHTS_LEVEL1,
    level(2, 40, true),
    level(3, 30, true),
    level(4, 0, true),
    level(6, 15, true),
    level(8, 5, true),
    full(FLYING_8X8_LEVEL7_TIME_PERMILLE),
    LevelParams {
        network: true,
        ..full(1000)
    },
];

/// International levels (10x10): as English's up to level 3; 4: four plies without noise; 5 (medium): six plies
/// with noise of up to 0.4 man; 6: everything [`INTERNATIONAL_LEVEL6_TIME_PERMILLE`] of the time allows; 7:
/// [`INTERNATIONAL_LEVEL7_TIME_PERMILLE`]; 8 (hard): all of it. On the big board each ply is worth about 200 Elo at
/// these depths, and the full search at 100 ms a move stands about 850 above six plies, so the top levels are
/// shares of the time.
pub const INTERNATIONAL_LEVELS: [LevelParams; 8] = [
    DRAUGHTS_LEVEL1,
    level(2, 40, true),
    level(3, 30, true),
    level(4, 0, true),
    level(6, 40, true),
    full(INTERNATIONAL_LEVEL6_TIME_PERMILLE),
    full(INTERNATIONAL_LEVEL7_TIME_PERMILLE),
    LevelParams {
        network: true,
        patterns: true,
        threats: INTERNATIONAL_HARD_THREATS,
        ..full(1000)
    },
];

/// International hard's threat plies ([`LevelParams::threats`]): against Scan 2.0 at 100 ms a move, with the
/// network, none scored 7.5% (40 games), one 16.2%, two 18.8% and three 10.6% (80 games each)
/// (docs/results/2026-12-07-international-network-and-threats.md).
pub const INTERNATIONAL_HARD_THREATS: u32 = 2;

/// A draughts level's parameters in a variant.
pub const fn draughts_level(variant: DraughtsVariant, level: Level) -> LevelParams {
    let levels = match variant {
        DraughtsVariant::English => &ENGLISH_LEVELS,
        DraughtsVariant::Russian | DraughtsVariant::Pool => &FLYING_8X8_LEVELS,
        DraughtsVariant::International => &INTERNATIONAL_LEVELS,
    };
    levels[level.index()]
}

/// Transposition table entries for draughts (2^19 entries of 40 bytes: 20 MB).
pub const DRAUGHTS_TT_ENTRIES: usize = 1 << 19;
/// A man.
pub const DRAUGHTS_MAN: i32 = 100;
/// A draughts network's correction of the evaluation is kept within +-this (hundredths of a man): six men,
/// enough to undo the hand-written evaluation's count of an ending its teacher knows to be drawn, and a bound on
/// how far it can misjudge a position unlike those it learnt from.
pub const DRAUGHTS_NETWORK_MAX: i32 = 600;
/// The International pattern weights' correction is kept within +-this (hundredths of a man), for the same reasons.
pub const DRAUGHTS_PATTERNS_MAX: i32 = 600;
/// A king on the 8x8 board with short kings (English): worth about one and a half men.
pub const DRAUGHTS_KING_SHORT: i32 = 150;
/// A flying king (International, Russian, Pool): worth about three men.
pub const DRAUGHTS_KING_FLYING: i32 = 300;
/// Per row a man has advanced from its own back row, scaled by `(pieces_max - pieces) / pieces_max + 1/2`: men
/// should run for the crown once the board empties.
pub const DRAUGHTS_ADVANCE: i32 = 4;
/// A man still on its own back row while the opponent has no king (it keeps the opponent from crowning).
pub const DRAUGHTS_BACK_RANK: i32 = 12;
/// A man or king on one of the central squares.
pub const DRAUGHTS_CENTRE: i32 = 6;
/// Per free diagonal step of a man (forward) or a king (any direction).
pub const DRAUGHTS_MOBILITY: i32 = 2;
/// A man on the side edge (it controls half the squares of a central man).
pub const DRAUGHTS_EDGE: i32 = -3;
/// The side to move.
pub const DRAUGHTS_TEMPO: i32 = 5;
/// Ahead in material, per hundredth of a man of the lead, times the empty share of the board, in 1/1000: trade
/// down when ahead.
pub const DRAUGHTS_TRADE_PERMILLE: i32 = 300;
/// A king's distance to the nearest enemy piece, per step, when the side is ahead (drives won endings home).
pub const DRAUGHTS_KING_HUNT: i32 = 3;
/// Late-move reduction: quiet moves after this many at depth 3 or more are searched shallower first.
pub const DRAUGHTS_LMR_MIN_MOVES: usize = 3;
/// The reduction is `DRAUGHTS_LMR_BASE + ln(depth) * ln(move number) / DRAUGHTS_LMR_DIVISOR` plies (one less at
/// principal-variation nodes), at least 1.
pub const DRAUGHTS_LMR_BASE: f64 = 0.5;
/// See [`DRAUGHTS_LMR_BASE`].
pub const DRAUGHTS_LMR_DIVISOR: f64 = 2.0;
/// First depth searched with an aspiration window (hard level), and the window's first half-width.
pub const DRAUGHTS_ASPIRATION_MIN_DEPTH: i32 = 5;
/// See [`DRAUGHTS_ASPIRATION_MIN_DEPTH`]; doubled after each failure.
pub const DRAUGHTS_ASPIRATION_WINDOW: i32 = 20;
/// A window wider than this (after failures) gives way to the full window.
pub const DRAUGHTS_ASPIRATION_WIDEST: i32 = 400;
/// Nodes between two looks at the clock (a power of two); draughts nodes take well under a microsecond.
pub const DRAUGHTS_NODES_PER_CLOCK_CHECK: u64 = 1024;

// ---------------------------------------------------------------------------------------------------------------
// Four-player chess (see `chess4/`). Scores are in hundredths of a game point.
// ---------------------------------------------------------------------------------------------------------------

/// Four-player levels, weakest first (levels 2, 5 and 8 are easy, medium and hard). 1-4 glance: they see their own
/// move and what it takes, not the captures after it nor the pieces they leave hanging, as a beginner does; 1
/// overlooks seven moves in eight, 2 (easy) three in four, 3 half of them, 4 none. 5 (medium): its move and the
/// captures after it, noise of up to eight points (more than a rook's capture is worth) and a quarter of its
/// moves overlooked. 6: the same with noise of up to four points and nothing overlooked. 7: its move and the
/// strongest answer, noise of up to three points. 8 (hard): as deep as the time allows
/// (docs/results/2026-12-06-four-player-ladder.md).
pub const CHESS4_LEVELS: [LevelParams; 8] = [
    glance(875),
    glance(750),
    glance(500),
    glance(0),
    four(1, 800, 250),
    four(1, 400, 0),
    four(2, 300, 0),
    full(1000),
];

/// A four-player level below hard: `max_depth` plies with captures at the horizon, `noise` and
/// `overlook_permille` as [`LevelParams`] says.
const fn four(max_depth: i32, noise: i32, overlook_permille: u32) -> LevelParams {
    LevelParams {
        overlook_permille,
        ..level(max_depth, noise, true)
    }
}

/// A four-player level that sees one move of its own and no more (without quiescence), overlooking each with
/// the chance `overlook_permille` in 1/1000.
const fn glance(overlook_permille: u32) -> LevelParams {
    LevelParams {
        overlook_permille,
        ..level(1, 0, false)
    }
}

/// A four-player level's parameters.
pub const fn chess4_level(level: Level) -> LevelParams {
    CHESS4_LEVELS[level.index()]
}

/// Transposition table entries for four-player chess (2^18).
pub const CHESS4_TT_ENTRIES: usize = 1 << 18;
/// One game point (what the table scores), in evaluation units.
pub const CHESS4_POINT: i32 = 100;
/// Material kept on the board, per role (pawn, knight, bishop, rook, queen, king, promoted queen): less than the
/// points a capture of it gives, since points are for good and material only makes future points possible.
pub const CHESS4_MATERIAL: [i32; 7] = [60, 220, 300, 380, 700, 0, 450];
/// An eliminated seat can score no more: its value drops by this.
pub const CHESS4_ELIMINATED: i32 = 1500;
/// King safety: per own piece next to the king.
pub const CHESS4_SHELTER: i32 = 12;
/// King safety: a king in check (it may be captured or mated before its owner moves).
pub const CHESS4_IN_CHECK: i32 = -150;
/// Per square a knight, bishop, rook or queen reaches.
pub const CHESS4_MOBILITY: i32 = 3;
/// Pieces another seat can take at a profit: the share of the loss the evaluation counts (see
/// `chess4::eval::hanging`).
pub const CHESS4_HANGING_PERCENT: i32 = 100;
/// Pawns: per step advanced from the start line.
pub const CHESS4_PAWN_ADVANCE: i32 = 4;
/// A finished game: per opponent with fewer points, minus per opponent with more.
pub const CHESS4_PLACE: i32 = 3000;
/// Quiescence search: at most this many plies of captures.
pub const CHESS4_QS_MAX_PLY: i32 = 4;
/// Nodes between two looks at the clock (a power of two); a four-player node takes several microseconds.
pub const CHESS4_NODES_PER_CLOCK_CHECK: u64 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_draughts_level_searches_at_least_as_far_as_the_one_below() {
        for variant in DraughtsVariant::ALL {
            let levels: Vec<LevelParams> = Level::ALL
                .into_iter()
                .map(|level| draughts_level(variant, level))
                .collect();
            for pair in levels.windows(2) {
                let (lower, upper) = (&pair[0], &pair[1]);
                // A fixed depth thinks with the whole budget as its limit; a share of the time searches as deep
                // as it can.
                assert!(
                    (upper.max_depth, upper.time_permille) >= (lower.max_depth, lower.time_permille),
                    "{variant:?}: {lower:?} then {upper:?}"
                );
            }
            assert_eq!(levels[0].overlook_permille, LEVEL1_OVERLOOK_PERMILLE);
            assert!(levels[1..].iter().all(|l| l.overlook_permille == 0));
            assert_eq!(
                levels[7].time_permille, 1000,
                "{variant:?}: hard uses all of its time"
            );
            assert_eq!(levels[7].max_depth, MAX_DEPTH, "{variant:?}");
            assert!(levels[7].network, "{variant:?}: hard uses the variant's network");
            assert_eq!(
                levels[7].patterns,
                variant == DraughtsVariant::International,
                "{variant:?}: only International has pattern weights"
            );
            assert!(
                levels[..7]
                    .iter()
                    .all(|l| !l.network && !l.patterns && l.threats == 0),
                "{variant:?}"
            );
        }
    }
}
