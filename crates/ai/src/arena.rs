//! Matches between players: our levels, a random mover, or an external UCI engine such as Stockfish. Games start
//! from a set of balanced openings, each opening played twice with colours swapped, at a fixed time per move, in
//! parallel; the result is W/D/L with an Elo estimate and its 95% error (`parlor match`).

use crate::engine_process::{EngineError, EngineProcess};
use crate::match_clock::{Clocks, GameClock, Think};
use crate::params::LevelParams;
use crate::request::{Level, Request};
use crate::rng::Rng;
use crate::{Engine, chess::Root};
use parlor_game::{GameKind, Outcome, Rules, Seat};
use shakmaty::Position as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The balanced chess openings kept in the repository.
pub const CHESS_OPENINGS: &str = include_str!("../data/chess-openings.txt");

/// A match that could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An external engine could not be started or stopped answering.
    #[error("engine `{command}`: {reason}")]
    Engine {
        /// The command line.
        command: String,
        /// What went wrong.
        reason: String,
    },
    /// A player spec was not understood.
    #[error("player `{0}`: expected easy, medium, hard, random or an engine command")]
    BadPlayer(String),
    /// The opening file has a line that is not `name: moves`, or a move that is not legal.
    #[error("opening `{0}` is not valid")]
    BadOpening(String),
    /// The player does not play this game (an outside engine speaks one game's protocol).
    #[error("player `{player}` plays {plays} only")]
    WrongGame {
        /// The player as given.
        player: String,
        /// The game it plays.
        plays: &'static str,
    },
    /// There is no match runner for this game yet.
    #[error("no match runner for {0} yet")]
    Unsupported(GameKind),
    /// Four-player matches give each move a fixed time: no game clock.
    #[error("{0}: a match on a game clock is for chess and draughts; give --movetime instead")]
    NoClock(GameKind),
}

impl From<EngineError> for ArenaError {
    fn from(e: EngineError) -> ArenaError {
        ArenaError::Engine {
            command: e.command,
            reason: e.reason,
        }
    }
}

/// Who plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Our engine at a level, with `(name, value)` changes of its parameters ([`LevelParams::set`]).
    Level(Level, Vec<(String, String)>),
    /// A uniformly random legal move.
    Random,
    /// An external UCI engine: the program and its arguments, and `setoption` pairs.
    Uci {
        /// Program and arguments, split on whitespace.
        command: String,
        /// `(name, value)` pairs sent as `setoption name N value V`.
        options: Vec<(String, String)>,
    },
    /// An external International draughts engine over the Hub protocol (either version), written
    /// `hub:<command>`: the program and its arguments, and parameters it is given before `init`.
    Hub {
        /// Program and arguments, split on whitespace.
        command: String,
        /// `(name, value)` pairs sent as `set` (first version) or `set-param` (second).
        options: Vec<(String, String)>,
    },
}

impl PlayerSpec {
    /// `easy`, `medium`, `hard` (or a level's number), `random`, a UCI engine's command, or `hub:` and a Hub
    /// engine's command, with `options` as `Name=value`: an engine's options, or for a level changes of its
    /// parameters (`threats=0`).
    ///
    /// # Errors
    /// [`ArenaError::BadPlayer`] for an empty spec or an option without `=`.
    pub fn parse(spec: &str, options: &[String]) -> Result<PlayerSpec, ArenaError> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err(ArenaError::BadPlayer(spec.to_owned()));
        }
        if spec.eq_ignore_ascii_case("random") {
            return Ok(PlayerSpec::Random);
        }
        let options: Vec<(String, String)> = options
            .iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
                    .ok_or_else(|| ArenaError::BadPlayer(format!("{spec} option {o}")))
            })
            .collect::<Result<_, _>>()?;
        if let Ok(level) = spec.parse::<Level>() {
            return Ok(PlayerSpec::Level(level, options));
        }
        Ok(match spec.strip_prefix("hub:") {
            Some(command) if !command.trim().is_empty() => PlayerSpec::Hub {
                command: command.trim().to_owned(),
                options,
            },
            Some(_) => return Err(ArenaError::BadPlayer(spec.to_owned())),
            None => PlayerSpec::Uci {
                command: spec.to_owned(),
                options,
            },
        })
    }

    /// Threads this player searches with in `game` (an external engine counts as one).
    pub fn threads(&self, game: GameKind) -> usize {
        match (self, game) {
            (PlayerSpec::Level(..), GameKind::Chess) => match self.params(game) {
                Ok(Some(lp)) => lp.threads.min(crate::chess::cores()),
                _ => 1,
            },
            _ => 1,
        }
    }

    /// A level's parameters in `game` with the spec's changes (`None` for a player that is not a level).
    ///
    /// # Errors
    /// [`ArenaError::BadPlayer`] for a change that names no parameter or gives it a value it cannot take.
    pub fn params(&self, game: GameKind) -> Result<Option<LevelParams>, ArenaError> {
        let PlayerSpec::Level(level, changes) = self else {
            return Ok(None);
        };
        let mut lp = crate::params::level_params(game, *level);
        for (name, value) in changes {
            lp.set(name, value)
                .map_err(|e| ArenaError::BadPlayer(format!("{level}: {e}")))?;
        }
        Ok(Some(lp))
    }

    /// A short name for reports.
    pub fn label(&self) -> String {
        match self {
            PlayerSpec::Level(l, changes) if changes.is_empty() => l.to_string(),
            PlayerSpec::Level(l, changes) => {
                let changes: Vec<String> = changes.iter().map(|(n, v)| format!("{n}={v}")).collect();
                format!("{l} [{}]", changes.join(", "))
            }
            PlayerSpec::Random => "random".to_owned(),
            PlayerSpec::Uci { command, options } | PlayerSpec::Hub { command, options } => {
                let opts: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
                let command = match self {
                    PlayerSpec::Hub { .. } => format!("hub:{command}"),
                    _ => command.clone(),
                };
                if opts.is_empty() {
                    command
                } else {
                    format!("{command} [{}]", opts.join(", "))
                }
            }
        }
    }
}

/// A match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The player whose results are reported.
    pub a: PlayerSpec,
    /// The opponent.
    pub b: PlayerSpec,
    /// Number of games (each opening twice, colours swapped).
    pub games: usize,
    /// Time per move for every player, when there is no `clock`.
    pub movetime: Duration,
    /// A game clock for each player instead of a time per move (chess and draughts): a player whose time runs
    /// out loses.
    pub clock: Option<GameClock>,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed for the random choices of our levels and the random mover.
    pub seed: u64,
    /// Games longer than this many plies are scored as draws.
    pub max_plies: usize,
}

impl MatchConfig {
    /// The players' time, for reports: `100 ms per move` or `a clock of 60 s + 1 s`.
    pub fn time_label(&self) -> String {
        match self.clock {
            Some(clock) => format!("a clock of {clock}"),
            None => format!("{} ms per move", self.movetime.as_millis()),
        }
    }
}

/// One game's result for player A.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Index of the game.
    pub index: usize,
    /// The opening's name.
    pub opening: String,
    /// Whether A had the first seat (White).
    pub a_first: bool,
    /// 1.0, 0.5 or 0.0 for A.
    pub a_score: f64,
    /// How it ended.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// The moves, opening included, in wire notation.
    pub moves: Vec<String>,
}

impl GameRecord {
    /// Game `index` from `opening`, A moving first or not, as a game ends: the first mover's score, how it ended
    /// and its moves.
    pub(crate) fn of(
        index: usize,
        opening: String,
        a_first: bool,
        played: (f64, String, Vec<String>),
    ) -> GameRecord {
        let (first_score, reason, moves) = played;
        GameRecord {
            index,
            opening,
            a_first,
            a_score: if a_first { first_score } else { 1.0 - first_score },
            reason,
            plies: moves.len(),
            moves,
        }
    }
}

/// W/D/L for player A and the Elo estimate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
}

impl Summary {
    /// Adds a game.
    pub fn add(&mut self, a_score: f64) {
        if a_score > 0.75 {
            self.wins += 1;
        } else if a_score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's score as a fraction.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// The Elo difference A minus B from the score, and the half-width of its 95% confidence interval (normal
    /// approximation of the per-game score's standard error, mapped through the logistic Elo curve).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |s: f64| {
            let s = s.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / s - 1.0).log10()
        };
        let (lo, hi) = (elo(p - 1.96 * se), elo(p + 1.96 * se));
        (elo(p), (hi - lo) / 2.0)
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (elo, err) = self.elo();
        write!(
            f,
            "W {} D {} L {} ({} games): score {:.1}%, Elo {:+.0} +- {:.0} (95%)",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            100.0 * self.score(),
            elo,
            err
        )
    }
}

/// An opening: a name and moves from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name.
    pub name: String,
    /// Moves in wire notation.
    pub moves: Vec<String>,
}

/// Reads an openings file (`name: moves`, `#` comments) and checks every move.
///
/// # Errors
/// [`ArenaError::BadOpening`] for a malformed line or an illegal move.
pub fn chess_openings(text: &str) -> Result<Vec<Opening>, ArenaError> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (name, moves) = line
            .split_once(':')
            .ok_or_else(|| ArenaError::BadOpening(line.to_owned()))?;
        let moves: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
        Root::new("", &moves).map_err(|_| ArenaError::BadOpening(name.to_owned()))?;
        out.push(Opening {
            name: name.trim().to_owned(),
            moves,
        });
    }
    Ok(out)
}

/// A player during a match.
trait Player {
    fn new_game(&mut self) -> Result<(), ArenaError>;
    fn choose(&mut self, moves: &[String], think: Think) -> Result<String, ArenaError>;
}

struct Ours {
    engine: Engine,
    level: Level,
    params: Option<LevelParams>,
    rng: Rng,
}

impl Player for Ours {
    fn new_game(&mut self) -> Result<(), ArenaError> {
        self.engine.new_game();
        Ok(())
    }
    fn choose(&mut self, moves: &[String], think: Think) -> Result<String, ArenaError> {
        let mut req = Request::new(GameKind::Chess, self.level, think.limit());
        req.moves = moves.to_vec();
        req.seed = Some(self.rng.next_u64());
        req.params = self.params;
        self.engine
            .choose(&req)
            .map(|c| c.wire)
            .map_err(|e| ArenaError::Engine {
                command: self.level.to_string(),
                reason: e.to_string(),
            })
    }
}

struct RandomMover(Rng);

impl Player for RandomMover {
    fn new_game(&mut self) -> Result<(), ArenaError> {
        Ok(())
    }
    fn choose(&mut self, moves: &[String], _: Think) -> Result<String, ArenaError> {
        let err = |reason: String| ArenaError::Engine {
            command: "random".to_owned(),
            reason,
        };
        let root = Root::new("", moves).map_err(|e| err(e.to_string()))?;
        let legal = root.pos.legal_moves();
        let m = legal
            .get(self.0.below(legal.len() as u64) as usize)
            .ok_or_else(|| err("no legal move".to_owned()))?;
        Ok(parlor_chess::position::uci(*m).to_string())
    }
}

/// An external UCI engine.
struct External(EngineProcess);

impl External {
    fn start(command: &str, options: &[(String, String)]) -> Result<External, ArenaError> {
        let mut e = External(EngineProcess::start(command, false)?);
        e.0.send("uci")?;
        e.wait_for("uciok")?;
        for (name, value) in options {
            e.0.send(&format!("setoption name {name} value {value}"))?;
        }
        e.0.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String, ArenaError> {
        Ok(self.0.until(|line| line.starts_with(prefix), |_| false)?)
    }
}

impl Player for External {
    fn new_game(&mut self) -> Result<(), ArenaError> {
        self.0.send("ucinewgame")?;
        self.0.send("isready")?;
        self.wait_for("readyok").map(|_| ())
    }
    fn choose(&mut self, moves: &[String], think: Think) -> Result<String, ArenaError> {
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.0.send(&position)?;
        let go = match think {
            Think::Move(time) => format!("go movetime {}", time.as_millis()),
            Think::Clock {
                own,
                other,
                increment,
            } => {
                // The games start from the standard position: White moves after an even number of plies.
                let (white, black) = if moves.len().is_multiple_of(2) {
                    (own, other)
                } else {
                    (other, own)
                };
                let inc = increment.as_millis();
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    white.as_millis(),
                    black.as_millis()
                )
            }
        };
        self.0.send(&go)?;
        let line = self.wait_for("bestmove")?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_owned)
            .ok_or_else(|| self.0.err(format!("bad answer `{line}`")).into())
    }
}

fn make_player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player>, ArenaError> {
    Ok(match spec {
        PlayerSpec::Level(level, _) => Box::new(Ours {
            engine: Engine::new(),
            level: *level,
            params: spec.params(GameKind::Chess)?,
            rng: Rng::new(seed),
        }),
        PlayerSpec::Random => Box::new(RandomMover(Rng::new(seed))),
        PlayerSpec::Uci { command, options } => Box::new(External::start(command, options)?),
        PlayerSpec::Hub { command, .. } => {
            return Err(ArenaError::WrongGame {
                player: format!("hub:{command}"),
                plays: "draughts",
            });
        }
    })
}

/// Plays one chess game from an opening; returns the score of the first seat and how it ended.
fn play_chess_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    cfg: &MatchConfig,
) -> Result<(f64, String, Vec<String>), ArenaError> {
    white.new_game()?;
    black.new_game()?;
    let mut game = parlor_chess::Game::new();
    for m in &opening.moves {
        game.play(m)
            .map_err(|_| ArenaError::BadOpening(opening.name.clone()))?;
    }
    let mut moves = opening.moves.clone();
    let mut clocks = Clocks::new(cfg.movetime, cfg.clock);
    while game.outcome().is_running() {
        if moves.len() >= cfg.max_plies {
            return Ok((0.5, "move limit".to_owned(), moves));
        }
        let seat = game.turn().unwrap_or(Seat::First);
        let player: &mut dyn Player = if seat == Seat::First {
            &mut *white
        } else {
            &mut *black
        };
        let started = std::time::Instant::now();
        let wire = player.choose(&moves, clocks.think(seat.index()))?;
        if !clocks.charge(seat.index(), started) {
            let score = if seat == Seat::First { 0.0 } else { 1.0 };
            return Ok((score, "time".to_owned(), moves));
        }
        if game.play(&wire).is_err() {
            let score = if seat == Seat::First { 0.0 } else { 1.0 };
            return Ok((score, format!("illegal move {wire}"), moves));
        }
        moves.push(wire);
    }
    let (score, reason) = match game.outcome() {
        Outcome::Decided(d) => (
            if d.winner() == Some(Seat::First) { 1.0 } else { 0.0 },
            format!("{:?}", d.reason),
        ),
        Outcome::Drawn(r) => (0.5, format!("{r:?}")),
        Outcome::Running => (0.5, "running".to_owned()),
    };
    Ok((score, reason, moves))
}

/// The opening of game `index` of a match of `games` games with `seed`, among `count` openings: each opening is
/// played twice (colours swapped), in the file's order, and seed `n` starts where a match with seed `n - 1`
/// stopped, so that consecutive seeds are new samples of the openings rather than repeats of the first ones.
fn opening_of(seed: u64, games: usize, index: usize, count: usize) -> usize {
    let count = count.max(1) as u64;
    let pairs = games.div_ceil(2) as u64 % count;
    let first = (seed.saturating_sub(1) % count) * pairs % count;
    ((first + (index / 2) as u64 % count) % count) as usize
}

/// Plays a match, calling `progress` after each game, and returns the games in order.
///
/// # Errors
/// [`ArenaError`] when an engine fails or the game has no runner.
pub fn run_match(
    cfg: &MatchConfig,
    openings: &[Opening],
    mut progress: impl FnMut(&GameRecord, &Summary),
) -> Result<Summary, ArenaError> {
    if cfg.game != GameKind::Chess {
        return Err(ArenaError::Unsupported(cfg.game));
    }
    if openings.is_empty() {
        return Err(ArenaError::BadOpening("(none)".to_owned()));
    }
    let mut summary = Summary::default();
    play_games(
        cfg.games,
        cfg.concurrency,
        |worker| {
            let seed = cfg.seed ^ (worker as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            Ok((make_player(&cfg.a, seed)?, make_player(&cfg.b, seed ^ 1)?))
        },
        |(a, b), index| {
            let opening = &openings[opening_of(cfg.seed, cfg.games, index, openings.len())];
            let a_first = index % 2 == 0;
            let played = if a_first {
                play_chess_game(a.as_mut(), b.as_mut(), opening, cfg)?
            } else {
                play_chess_game(b.as_mut(), a.as_mut(), opening, cfg)?
            };
            Ok(GameRecord::of(index, opening.name.clone(), a_first, played))
        },
        |record| {
            summary.add(record.a_score);
            progress(&record, &summary);
        },
    )?;
    Ok(summary)
}

/// A player of the draughts and four-player matches: one of our levels, a random mover, or (draughts) an outside
/// engine over Hub.
pub(crate) enum LocalPlayer {
    /// Our engine at a level (with its parameters when a match changes them), with its own seed for the level's
    /// noise.
    Ours(Box<Engine>, Level, Option<LevelParams>, crate::rng::Rng),
    /// A uniformly random legal move.
    Random(crate::rng::Rng),
    /// An outside draughts engine.
    Hub(Box<crate::draughts::hub_engine::HubEngine>),
}

impl LocalPlayer {
    /// The player a spec names.
    pub(crate) fn new(spec: &PlayerSpec, game: GameKind, seed: u64) -> Result<LocalPlayer, ArenaError> {
        match spec {
            PlayerSpec::Level(level, _) => Ok(LocalPlayer::Ours(
                Box::new(Engine::new()),
                *level,
                spec.params(game)?,
                crate::rng::Rng::new(seed),
            )),
            PlayerSpec::Random => Ok(LocalPlayer::Random(crate::rng::Rng::new(seed))),
            PlayerSpec::Uci { command, .. } => Err(ArenaError::WrongGame {
                player: command.clone(),
                plays: "chess",
            }),
            PlayerSpec::Hub { command, options } => match game {
                GameKind::Draughts(variant) => Ok(LocalPlayer::Hub(Box::new(
                    crate::draughts::hub_engine::HubEngine::start(command, variant, options)?,
                ))),
                _ => Err(ArenaError::WrongGame {
                    player: format!("hub:{command}"),
                    plays: "draughts",
                }),
            },
        }
    }

    /// Forgets what the engine learnt in the last game.
    ///
    /// # Errors
    /// [`ArenaError::Engine`] when an outside engine cannot be told.
    pub(crate) fn new_game(&mut self) -> Result<(), ArenaError> {
        match self {
            LocalPlayer::Ours(engine, ..) => engine.new_game(),
            LocalPlayer::Random(_) => {}
            LocalPlayer::Hub(engine) => engine.new_game()?,
        }
        Ok(())
    }

    /// A move for the side to move in `game` (of `kind`), whose moves so far are `moves`, thinking `think`.
    pub(crate) fn choose(
        &mut self,
        game: &dyn parlor_game::Rules,
        kind: GameKind,
        moves: &[String],
        think: Think,
    ) -> Result<String, ArenaError> {
        match self {
            LocalPlayer::Ours(engine, level, params, rng) => {
                let mut req = Request::new(kind, *level, think.limit());
                req.moves = moves.to_vec();
                req.seed = Some(rng.next_u64());
                req.params = *params;
                engine
                    .choose(&req)
                    .map(|c| c.wire)
                    .map_err(|e| ArenaError::Engine {
                        command: level.to_string(),
                        reason: e.to_string(),
                    })
            }
            LocalPlayer::Random(rng) => {
                let legal = game.legal_moves();
                legal
                    .get(rng.below(legal.len() as u64) as usize)
                    .map(|m| m.wire.clone())
                    .ok_or_else(|| ArenaError::Engine {
                        command: "random".to_owned(),
                        reason: "no legal move".to_owned(),
                    })
            }
            LocalPlayer::Hub(engine) => Ok(engine.choose(moves, think)?),
        }
    }
}

/// Plays games `0..games` on `workers` threads: each thread makes its players once with `setup(worker)` and plays
/// the games it takes next with `play(players, index)`; `take` gets each game as it ends. Stops at the first error
/// (the games under way finish) and returns it.
///
/// # Errors
/// The first [`ArenaError`] of a setup or a game.
pub(crate) fn play_games<P, R: Send>(
    games: usize,
    workers: usize,
    setup: impl Fn(usize) -> Result<P, ArenaError> + Sync,
    play: impl Fn(&mut P, usize) -> Result<R, ArenaError> + Sync,
    mut take: impl FnMut(R),
) -> Result<(), ArenaError> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<R, ArenaError>>();
    std::thread::scope(|scope| {
        for worker in 0..workers.clamp(1, games.max(1)) {
            let (tx, next, setup, play) = (tx.clone(), &next, &setup, &play);
            scope.spawn(move || {
                let mut players = match setup(worker) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let record = play(&mut players, index);
                    let failed = record.is_err();
                    if tx.send(record).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut first_error = None;
        for record in rx {
            match record {
                Ok(r) => take(r),
                Err(e) => {
                    // The other threads stop after their game: the next index they take is past the end.
                    next.store(games, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    })
}

/// Plays a chess match from the chess openings in the repository, printing each game to stderr (with its moves if
/// `show_moves`) and the summary to stdout: `parlor match` for chess ([`crate::matches::print_match`] picks the
/// arena of each game).
///
/// # Errors
/// As [`run_match`], or [`ArenaError::BadOpening`] if the openings file is broken.
pub fn print_chess_match(cfg: &MatchConfig, show_moves: bool) -> Result<Summary, ArenaError> {
    let openings = chess_openings(CHESS_OPENINGS)?;
    let (a, b) = (cfg.a.label(), cfg.b.label());
    println!("{a} vs {b}: {} games at {}", cfg.games, cfg.time_label());
    let summary = run_match(cfg, &openings, |g, s| {
        let colour = if g.a_first { "white" } else { "black" };
        eprintln!(
            "game {:>3} {:<28} A {colour}: {} ({}, {} plies)  running: {s}",
            g.index + 1,
            g.opening,
            g.a_score,
            g.reason,
            g.plies
        );
        if show_moves {
            eprintln!("  moves: {}", g.moves.join(" "));
        }
    })?;
    println!("{a} vs {b}: {summary}");
    Ok(summary)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use parlor_draughts::DraughtsVariant;

    #[test]
    fn players_read_as_levels_uci_or_hub_engines() {
        assert_eq!(
            PlayerSpec::parse("7", &[]).unwrap(),
            PlayerSpec::Level(Level::new(7).unwrap(), Vec::new())
        );
        let tuned = PlayerSpec::parse("hard", &["threats=0".to_owned()]).unwrap();
        assert_eq!(tuned.label(), "hard [threats=0]");
        let international = GameKind::Draughts(DraughtsVariant::International);
        let lp = tuned.params(international).unwrap().unwrap();
        assert_eq!(lp.threats, 0);
        assert_eq!(
            LevelParams {
                threats: 0,
                ..crate::params::level_params(international, Level::HARD)
            },
            lp
        );
        let bad = PlayerSpec::parse("hard", &["depth=3".to_owned()]).unwrap();
        assert!(matches!(
            bad.params(GameKind::Chess),
            Err(ArenaError::BadPlayer(_))
        ));
        let bad = PlayerSpec::parse("hard", &["threats=many".to_owned()]).unwrap();
        assert!(matches!(
            bad.params(GameKind::Chess),
            Err(ArenaError::BadPlayer(_))
        ));
        let options = ["book=false".to_owned()];
        let hub = PlayerSpec::parse("hub:/opt/scan/scan hub", &options).unwrap();
        assert_eq!(
            hub,
            PlayerSpec::Hub {
                command: "/opt/scan/scan hub".to_owned(),
                options: vec![("book".to_owned(), "false".to_owned())],
            }
        );
        assert_eq!(hub.label(), "hub:/opt/scan/scan hub [book=false]");
        assert!(matches!(
            PlayerSpec::parse("/usr/games/stockfish", &[]).unwrap(),
            PlayerSpec::Uci { .. }
        ));
        assert!(matches!(
            PlayerSpec::parse("hub: ", &[]),
            Err(ArenaError::BadPlayer(_))
        ));
    }

    #[test]
    fn openings_are_legal() {
        let openings = chess_openings(CHESS_OPENINGS).unwrap();
        assert!(openings.len() >= 20);
    }

    #[test]
    fn consecutive_seeds_continue_through_the_openings() {
        // Seed 1 keeps the file's order (the figures of earlier sessions), both colours per opening.
        let first: Vec<usize> = (0..6).map(|i| opening_of(1, 40, i, 30)).collect();
        assert_eq!(first, [0, 0, 1, 1, 2, 2]);
        // Seeds 1, 2 and 3 of 40 games play each of 30 openings twice with each colour.
        let mut played = [0; 30];
        for seed in 1..=3 {
            for index in 0..40 {
                played[opening_of(seed, 40, index, 30)] += 1;
            }
        }
        assert_eq!(played, [4; 30]);
        assert_eq!(opening_of(2, 40, 0, 30), 20);
        assert!(opening_of(u64::MAX, usize::MAX, usize::MAX, 30) < 30);
    }

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let even = Summary {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let good = Summary {
            wins: 30,
            draws: 5,
            losses: 5,
        };
        let (elo, err) = good.elo();
        assert!(elo > 150.0 && err > 30.0 && err < 200.0, "{elo} {err}");
    }

    #[test]
    fn easy_beats_random_in_a_short_match() {
        let cfg = MatchConfig {
            game: GameKind::Chess,
            a: PlayerSpec::Level(Level::EASY, Vec::new()),
            b: PlayerSpec::Random,
            games: 2,
            movetime: Duration::from_millis(20),
            clock: None,
            concurrency: 2,
            seed: 7,
            max_plies: 300,
        };
        let openings = chess_openings(CHESS_OPENINGS).unwrap();
        let s = run_match(&cfg, &openings, |_, _| {}).unwrap();
        assert_eq!(s.games(), 2);
        assert!(s.score() >= 0.5, "{s}");
    }

    #[test]
    fn a_chess_match_on_a_clock_plays_its_games_to_the_end() {
        let cfg = MatchConfig {
            game: GameKind::Chess,
            a: PlayerSpec::Level(Level::EASY, Vec::new()),
            b: PlayerSpec::Level(Level::EASY, vec![("max_depth".to_owned(), "1".to_owned())]),
            games: 2,
            movetime: Duration::from_millis(20),
            clock: Some("2+0.02".parse().unwrap()),
            concurrency: 2,
            seed: 7,
            max_plies: 200,
        };
        assert_eq!(cfg.time_label(), "a clock of 2 s + 0.02 s");
        let openings = chess_openings(CHESS_OPENINGS).unwrap();
        let mut reasons = Vec::new();
        let s = run_match(&cfg, &openings, |g, _| reasons.push(g.reason.clone())).unwrap();
        assert_eq!(s.games(), 2, "{reasons:?}");
        // Searches budgeted from a 2 s clock never use it up.
        assert!(reasons.iter().all(|r| r != "time"), "{reasons:?}");
    }
}
