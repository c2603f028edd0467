//! `parlor match` for every game: the chess arena (`arena.rs`) or the draughts and four-player ones, each of which
//! uses the chess arena's players, configuration and summary.

use crate::arena::{ArenaError, MatchConfig, Summary};
use parlor_game::GameKind;

/// Plays the match `cfg` asks for in its game's arena, printing each game to stderr (with its moves if
/// `show_moves`) and the summary to stdout: the body of `parlor match`.
///
/// # Errors
/// As the game's arena: an engine that cannot start or answer, a broken openings file.
pub fn print_match(cfg: &MatchConfig, show_moves: bool) -> Result<Summary, ArenaError> {
    match cfg.game {
        GameKind::Draughts(_) => crate::draughts::arena::print_match(cfg, show_moves),
        GameKind::Chess4 => crate::chess4::arena::print_match(cfg, show_moves),
        GameKind::Chess => crate::arena::print_chess_match(cfg, show_moves),
    }
}
