//! Four-player matches (`parlor match --game chess4 --a hard --b medium`): player A against three copies of
//! player B. A's seat rotates through the four seats (game `i` puts A in seat `i mod 4`), and each block of four
//! games starts from the same short random opening (one move per seat), so every seat and every opening is
//! played by A once. The report gives average places and points of A and of the B seats, and a pairwise summary
//! (each game counts as three duels of A against one B seat: ahead, level or behind in the final places).

use crate::arena::{ArenaError, LocalPlayer as Player, MatchConfig, Summary};
use crate::match_clock::Think;
use crate::rng::Rng;
use parlor_chess4::{Game, Options, Position};
use parlor_game::{GameKind, Outcome, Rules, Seat};

/// Plies of the random opening (one move per seat).
pub const OPENING_PLIES: usize = 4;

/// One four-player game's result.
#[derive(Clone, Debug)]
pub struct Record4 {
    /// Index of the game.
    pub index: usize,
    /// A's seat.
    pub a_seat: Seat,
    /// Final place of each seat (1 best).
    pub places: [u8; 4],
    /// Final points of each seat.
    pub points: [i32; 4],
    /// How it ended.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// The moves, opening included.
    pub moves: Vec<String>,
}

/// Totals of a four-player match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary4 {
    /// Games counted.
    pub games: usize,
    /// Sum of A's places.
    pub a_places: u32,
    /// Sum of A's points.
    pub a_points: i64,
    /// Sum of the B seats' places (three per game).
    pub b_places: u32,
    /// Sum of the B seats' points.
    pub b_points: i64,
    /// Games A finished first (alone or shared).
    pub a_firsts: usize,
    /// Sum of the places of the B seat after A (the next to move), opposite A, and before A.
    pub b_seat_places: [u32; 3],
    /// A against each B seat, as duels.
    pub duels: Summary,
}

impl Summary4 {
    /// Adds a game.
    pub fn add(&mut self, r: &Record4) {
        let a = r.a_seat.index();
        self.games += 1;
        self.a_places += u32::from(r.places[a]);
        self.a_points += i64::from(r.points[a]);
        self.a_firsts += usize::from(r.places[a] == 1);
        for k in 1..4 {
            self.b_seat_places[k - 1] += u32::from(r.places[(a + k) % 4]);
        }
        for s in (0..4).filter(|&s| s != a) {
            self.b_places += u32::from(r.places[s]);
            self.b_points += i64::from(r.points[s]);
            self.duels.add(match r.places[a].cmp(&r.places[s]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            });
        }
    }

    /// A's average place.
    pub fn a_place(&self) -> f64 {
        f64::from(self.a_places) / self.games.max(1) as f64
    }

    /// The B seats' average place.
    pub fn b_place(&self) -> f64 {
        f64::from(self.b_places) / (3 * self.games).max(1) as f64
    }
}

impl std::fmt::Display for Summary4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.games.max(1) as f64;
        write!(
            f,
            "{} games: A average place {:.2}, points {:.1}, first in {}; B seats average place {:.2} (after A {:.2}, \
             opposite {:.2}, before A {:.2}), points {:.1}; duels A vs each B: {}",
            self.games,
            self.a_place(),
            self.a_points as f64 / g,
            self.a_firsts,
            self.b_place(),
            f64::from(self.b_seat_places[0]) / g,
            f64::from(self.b_seat_places[1]) / g,
            f64::from(self.b_seat_places[2]) / g,
            self.b_points as f64 / (3.0 * g),
            self.duels
        )
    }
}

/// The random opening of block `index` (one move per seat from the start).
pub fn opening(seed: u64, index: usize) -> Vec<String> {
    let mut rng = Rng::new(seed ^ (index as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut pos = Position::start();
    let mut out = Vec::new();
    for _ in 0..OPENING_PLIES {
        let moves = pos.legal_moves();
        let Some(&m) = moves.get(rng.below(moves.len() as u64) as usize) else {
            break;
        };
        out.push(pos.move_notation(m));
        pos.play_unchecked(m);
    }
    out
}

/// Plays one game with `players[s]` in seat `s`.
fn play_game(
    players: &mut [Player],
    index: usize,
    a_seat: Seat,
    cfg: &MatchConfig,
) -> Result<Record4, ArenaError> {
    for p in players.iter_mut() {
        p.new_game()?;
    }
    let open = opening(cfg.seed, index / 4);
    let options = Options {
        move_limit: Some(cfg.max_plies.min(u32::MAX as usize) as u32),
        first: Seat::First,
    };
    let mut game = Game::new(options);
    for m in &open {
        game.play(m).map_err(|_| ArenaError::BadOpening(open.join(" ")))?;
    }
    let mut moves = open.clone();
    let mut reason = String::new();
    while game.outcome().is_running() {
        let seat = game.turn().unwrap_or(Seat::First);
        let think = Think::Move(cfg.movetime);
        let wire = players[seat.index()].choose(&game, cfg.game, &moves, think)?;
        if game.play(&wire).is_err() {
            // An illegal move: the seat resigns (and the report says so).
            reason = format!("illegal move {wire} by {seat}; ");
            game.apply(parlor_game::GameEvent::Resign(seat))
                .map_err(|e| ArenaError::Engine {
                    command: "arena".to_owned(),
                    reason: e.to_string(),
                })?;
            // Later moves cannot be replayed from the move list: stop here.
            break;
        }
        moves.push(wire);
    }
    let points = game.points();
    let mut places = [0u8; 4];
    let mut pts = [0i32; 4];
    for s in Seat::range(4) {
        pts[s.index()] = points[s];
    }
    match game.outcome() {
        Outcome::Decided(d) => {
            for s in Seat::range(4) {
                places[s.index()] = d.places[s];
            }
            reason.push_str(d.reason.name());
        }
        _ => {
            // Unfinished (an illegal move): places by points.
            for s in 0..4 {
                places[s] = 1 + (0..4).filter(|&u| pts[u] > pts[s]).count() as u8;
            }
            reason.push_str("unfinished");
        }
    }
    Ok(Record4 {
        index,
        a_seat,
        places,
        points: pts,
        reason,
        plies: moves.len(),
        moves,
    })
}

/// Plays a four-player match, calling `progress` after each game.
///
/// # Errors
/// [`ArenaError`] when a player is not supported or an engine fails.
pub fn run_match(
    cfg: &MatchConfig,
    mut progress: impl FnMut(&Record4, &Summary4),
) -> Result<Summary4, ArenaError> {
    if cfg.game != GameKind::Chess4 {
        return Err(ArenaError::Unsupported(cfg.game));
    }
    if cfg.clock.is_some() {
        return Err(ArenaError::NoClock(cfg.game));
    }
    let mut summary = Summary4::default();
    crate::arena::play_games(
        cfg.games,
        cfg.concurrency,
        |worker| Ok(cfg.seed ^ (worker as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        |&mut seed, index| {
            let a_seat = Seat::from_index(index % 4).unwrap_or(Seat::First);
            let mut players = (0..4)
                .map(|s| {
                    let spec = if s == a_seat.index() { &cfg.a } else { &cfg.b };
                    Player::new(spec, cfg.game, seed ^ (index as u64) << 8 ^ s as u64)
                })
                .collect::<Result<Vec<Player>, ArenaError>>()?;
            play_game(&mut players, index, a_seat, cfg)
        },
        |record| {
            summary.add(&record);
            progress(&record, &summary);
        },
    )?;
    Ok(summary)
}

/// Plays a four-player match, printing each game to stderr and the summary to stdout (`parlor match`). Returns
/// the duels of A against each B seat.
///
/// # Errors
/// As [`run_match`].
pub fn print_match(cfg: &MatchConfig, show_moves: bool) -> Result<Summary, ArenaError> {
    let (a, b) = (cfg.a.label(), cfg.b.label());
    println!(
        "chess4: {a} vs 3 x {b}: {} games at {} ms per move, A's seat rotated, move limit {} plies",
        cfg.games,
        cfg.movetime.as_millis(),
        cfg.max_plies
    );
    let summary = run_match(cfg, |r, s| {
        eprintln!(
            "game {:>3} A in seat {}: places {:?} points {:?} ({}, {} plies)  running: A {:.2} B {:.2}",
            r.index + 1,
            r.a_seat.index() + 1,
            r.places,
            r.points,
            r.reason,
            r.plies,
            s.a_place(),
            s.b_place()
        );
        if show_moves {
            eprintln!("  moves: {}", r.moves.join(" "));
        }
    })?;
    println!("chess4: {a} vs 3 x {b}: {summary}");
    Ok(summary.duels)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use crate::arena::PlayerSpec;
    use std::time::Duration;

    #[test]
    fn a_short_four_player_match_reports_places() {
        let cfg = MatchConfig {
            game: GameKind::Chess4,
            a: PlayerSpec::Level(Level::EASY, Vec::new()),
            b: PlayerSpec::Random,
            games: 1,
            movetime: Duration::from_millis(5),
            clock: None,
            concurrency: 1,
            seed: 3,
            max_plies: 24,
        };
        let s = run_match(&cfg, |_, _| {}).unwrap();
        assert_eq!(s.games, 1);
        assert_eq!(s.duels.games(), 3);
        assert!((1.0..=4.0).contains(&s.a_place()));
        let seats: u32 = s.b_seat_places.iter().sum();
        assert_eq!(f64::from(seats), 3.0 * s.b_place());
    }
}
