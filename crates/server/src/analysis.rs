//! The engine for players, off the live games: the evaluation of a position shown on the analysis board and in game
//! reviews. Searches run on the blocking pool, each holding one of a few engine places (`--analysis-slots`, by
//! default one core fewer than the machine has, so play keeps a core), one thread each, for a bounded time.
//!
//! Routes: `POST /api/analysis` (a position and its evaluation, with the legal moves for the board) and
//! `POST /api/import` (a PGN, PDN or PGN4 text read by its rules crate into a start and moves).

use crate::config::Config;
use crate::cpu::engine_position;
use crate::games::{self, GameSetup, SetupError, Step};
use crate::{limit, origin, proxy};
use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use parlor_ai::analysis::{self, Evaluation};
use parlor_ai::{AiError, Level, Limit, Score};
use parlor_game::{AnyGame, GameKind, Rules};
use parlor_protocol::{LegalMove, OutcomeInfo};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// The default thinking time of the analysis board.
pub const BOARD_THINK: Duration = Duration::from_millis(300);
/// The shortest and longest thinking time a request may ask of the analysis board.
pub const BOARD_THINK_RANGE: (u64, u64) = (50, 2000);
/// The most moves an analysis request may carry.
pub const MAX_MOVES: usize = 1000;
/// The largest body of an analysis or import request (a long game's PGN fits many times over).
pub const MAX_BODY: usize = 200 * 1024;
/// How long an analysis-board request waits for an engine place before the server says it is busy.
const PLACE_WAIT: Duration = Duration::from_secs(5);
/// Analysis-board requests one address may have waiting or running at once, so one client cannot hold every place
/// (loopback, a proxy on the same host or a local test, is not counted: see [`limit::is_exempt`]).
pub const PER_ADDRESS: usize = 4;

/// The engine places of this node, shared by the analysis board and the reviews.
#[derive(Debug)]
pub struct Analysts {
    places: Arc<Semaphore>,
    /// Searches running or waiting for a place: bounded so a flood of requests is refused, not queued.
    waiting: Arc<Semaphore>,
    /// The engine places.
    pub slots: usize,
}

/// Why a position could not be evaluated.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Every engine place stayed taken (or too many requests wait).
    #[error("every engine place is taken")]
    Busy,
    /// The engine refused the position.
    #[error("{0}")]
    Engine(#[from] AiError),
    /// The search's thread ended without an answer (the server is shutting down).
    #[error("the search did not finish")]
    Lost,
}

impl Analysts {
    /// `slots` engine places (at least one).
    pub fn new(slots: usize) -> Analysts {
        let slots = slots.max(1);
        Analysts {
            places: Arc::new(Semaphore::new(slots)),
            waiting: Arc::new(Semaphore::new(slots * 8)),
            slots,
        }
    }

    /// Searches `position` for `think` on one engine place, waiting at most `wait` for the place (`None`: as long
    /// as it takes, for reviews that are already queued).
    ///
    /// # Errors
    /// [`AnalysisError::Busy`] when no place came in time, else the engine's refusal.
    pub async fn evaluate(
        &self,
        position: Position,
        think: Duration,
        wait: Option<Duration>,
    ) -> Result<Looked, AnalysisError> {
        // Requests that give up after `wait` (the analysis board) are also bounded in number while they wait; the
        // reviews are bounded by their queue and wait their turn.
        let _waiting = match wait {
            Some(_) => Some(
                self.waiting
                    .clone()
                    .try_acquire_owned()
                    .map_err(|_| AnalysisError::Busy)?,
            ),
            None => None,
        };
        let place = self.places.clone().acquire_owned();
        let place = match wait {
            Some(wait) => tokio::time::timeout(wait, place)
                .await
                .map_err(|_| AnalysisError::Busy)?,
            None => place.await,
        }
        .map_err(|_| AnalysisError::Busy)?;
        tokio::task::spawn_blocking(move || {
            let _place = place;
            position.look(think)
        })
        .await
        .map_err(|_| AnalysisError::Lost)?
    }
}

/// A position to evaluate: a game as it stands, and how its engine reads it.
#[derive(Debug)]
pub struct Position {
    /// The game, for the notation of the best line.
    pub game: AnyGame,
    /// The engine's start and moves ([`engine_position`]).
    pub start: String,
    /// The moves since `start`.
    pub moves: Vec<String>,
    /// Draughts: whether capturing is compulsory.
    pub mandatory_capture: bool,
    /// Four-player chess reviews: the move played here, whose own score the review needs.
    pub played: Option<String>,
}

impl Position {
    /// The position `game` reached by `steps`.
    pub fn of(game: &AnyGame, steps: &[Step], mandatory_capture: bool) -> Position {
        let (start, moves) = engine_position(game.as_ref(), steps);
        Position {
            game: game.clone(),
            start,
            moves,
            mandatory_capture,
            played: None,
        }
    }

    /// The engine's view of this position after `think` (on this thread: call it from a blocking one). A finished
    /// game gets its result as its view.
    fn look(self, think: Duration) -> Result<Looked, AnalysisError> {
        let kind = self.game.kind();
        let mut req = parlor_ai::Request::new(kind, Level::HARD, Limit::MoveTime(think));
        req.start = self.start.clone();
        req.moves = self.moves.clone();
        req.mandatory_capture = self.mandatory_capture;
        req.threads = Some(1);
        req.stop = Arc::new(AtomicBool::new(false));
        // A two-player game ended by a resignation, a flag or an agreement still has a position to judge: the
        // seat after the last mover's is to move there (the engine says when the position itself is over).
        let mover = self.game.turn().map(|s| s.index()).or_else(|| {
            let last = self.game.history().last()?;
            (kind != GameKind::Chess4).then(|| 1 - last.seat.index())
        });
        let evaluation = match mover {
            Some(mover) => match analysis::evaluate(&req, mover) {
                Ok(e) => e,
                Err(AiError::GameOver) => finished(self.game.as_ref(), &req)?,
                Err(e) => return Err(e.into()),
            },
            None => finished(self.game.as_ref(), &req)?,
        };
        let played = match (&self.played, &evaluation.best) {
            (Some(played), Some(best)) if played != best && kind == GameKind::Chess4 => {
                Some(analysis::score_of_move(&req, played, &evaluation)?)
            }
            _ => None,
        };
        // The best line is written by playing it: on a game ended by an event (a resignation), from a fresh game
        // of the same position, which takes moves.
        let view = if self.game.turn().is_none() && evaluation.best.is_some() {
            let setup = GameSetup {
                game: kind.to_string(),
                start: Some(self.game.position_text()),
                first: 0,
                mandatory_capture: self.mandatory_capture,
                move_limit: None,
            };
            let fresh = setup.new_game().unwrap_or_else(|_| self.game.clone());
            EvalView::of(fresh.as_ref(), &evaluation)
        } else {
            EvalView::of(self.game.as_ref(), &evaluation)
        };
        Ok(Looked {
            evaluation,
            view,
            played,
        })
    }
}

/// The view of a finished game: its result (four-player: each army's value, as during the game).
fn finished(game: &dyn Rules, req: &parlor_ai::Request) -> Result<Evaluation, AiError> {
    if game.kind() == GameKind::Chess4 {
        Evaluation::finished_four_player(req)
    } else {
        Ok(Evaluation::finished(
            game.seat_count(),
            game.outcome().winner().map(|s| s.index()),
        ))
    }
}

/// A position evaluated.
#[derive(Debug)]
pub struct Looked {
    /// The engine's view.
    pub evaluation: Evaluation,
    /// As players see it.
    pub view: EvalView,
    /// Four-player chess reviews: the played move's own score, when it was not the best move.
    pub played: Option<Score>,
}

/// The longest best line shown.
const PV_SHOWN: usize = 8;

/// An evaluation as the board and the review show it (see docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalView {
    /// Per seat (colour index), in hundredths of the game's unit.
    pub eval: Vec<i32>,
    /// Two-player games: mate in this many moves for seat 0 (negative: for seat 1).
    pub mate: Option<i32>,
    /// The best move in wire notation.
    pub best: Option<String>,
    /// The best move in the game's notation.
    pub best_display: Option<String>,
    /// The best line in the game's notation.
    pub pv: Vec<String>,
    /// The depth searched.
    pub depth: u32,
}

impl EvalView {
    /// The view of `evaluation` in `game`, its best line written in the game's notation (as far as it plays).
    pub fn of(game: &dyn Rules, evaluation: &Evaluation) -> EvalView {
        let mut line = game.clone_box();
        let mut pv = Vec::new();
        for wire in evaluation.pv.iter().take(PV_SHOWN) {
            if line.play(wire).is_err() {
                break;
            }
            if let Some(played) = line.history().last() {
                pv.push(played.display.clone());
            }
        }
        EvalView {
            eval: evaluation.values.clone(),
            mate: evaluation.mate,
            best: evaluation.best.clone(),
            best_display: pv.first().cloned(),
            pv,
            depth: evaluation.depth,
        }
    }
}

/// The unit of a game's evaluations: what 100 of them is.
pub fn unit(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Chess => "pawn",
        GameKind::Draughts(_) => "man",
        GameKind::Chess4 => "point",
    }
}

/// An error answer: `{"error": code, "message": text}` with the status.
pub fn refuse(status: StatusCode, code: &str, message: impl std::fmt::Display) -> Response {
    let body = serde_json::json!({"error": code, "message": message.to_string()});
    (status, Json(body)).into_response()
}

/// Refuses a POST from a page of another site (its `Origin`), which could otherwise use a player's cookie.
pub fn foreign(headers: &HeaderMap, allowed: &[String]) -> Option<Response> {
    (!origin::is_allowed(headers, allowed))
        .then(|| refuse(StatusCode::FORBIDDEN, "origin", "another site's page"))
}

/// The analysis routes.
pub fn routes<S: Clone + Send + Sync + 'static>(analysts: Arc<Analysts>, config: Arc<Config>) -> Router<S> {
    Router::new()
        .route("/api/analysis", post(analyse))
        .route("/api/import", post(import))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(Routes {
            analysts,
            config,
            in_flight: Arc::new(Mutex::new(HashMap::new())),
        })
}

#[derive(Clone)]
struct Routes {
    analysts: Arc<Analysts>,
    config: Arc<Config>,
    /// Analysis-board requests per client address, waiting or running.
    in_flight: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// An address's place among the analysis-board requests in flight, given back on drop.
struct InFlight {
    table: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl InFlight {
    /// Counts a request of `address`, unless it has [`PER_ADDRESS`] in flight already.
    fn take(table: &Arc<Mutex<HashMap<IpAddr, usize>>>, address: IpAddr) -> Option<InFlight> {
        let mut counts = table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = counts.entry(address).or_insert(0);
        if *count >= PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(InFlight {
            table: table.clone(),
            address,
        })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut counts = self
            .table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// `POST /api/analysis`.
#[derive(Debug, Deserialize)]
struct AnalyseRequest {
    game: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    moves: Vec<String>,
    think_ms: Option<u64>,
}

/// A move of the analysis board's line.
#[derive(Debug, Serialize)]
struct LineMove {
    wire: String,
    display: String,
    seat: usize,
}

#[derive(Debug, Serialize)]
struct Analysed {
    game: String,
    start: String,
    position: String,
    turn: Option<usize>,
    moves: Vec<LineMove>,
    legal: Vec<LegalMove>,
    outcome: Option<OutcomeInfo>,
    eval: Option<EvalView>,
}

async fn analyse(
    State(routes): State<Routes>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(refused) = foreign(&headers, &routes.config.origins) {
        return refused;
    }
    let client = proxy::client_ip(peer.ip(), &headers, &routes.config);
    let _in_flight = if limit::is_exempt(client) {
        None
    } else {
        match InFlight::take(&routes.in_flight, limit::address_key(client)) {
            Some(turn) => Some(turn),
            None => {
                return refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    "busy",
                    "this address has analyses running",
                );
            }
        }
    };
    let req: AnalyseRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_request", e),
    };
    if req.moves.len() > MAX_MOVES {
        return refuse(
            StatusCode::BAD_REQUEST,
            "too_long",
            format!("more than {MAX_MOVES} moves"),
        );
    }
    let setup = GameSetup {
        game: req.game.clone(),
        start: Some(req.start.trim().to_owned()).filter(|s| !s.is_empty()),
        first: 0,
        mandatory_capture: true,
        move_limit: None,
    };
    let steps: Vec<Step> = req.moves.iter().map(|w| Step::Move(w.clone())).collect();
    let game = match games::replay(&setup, &steps) {
        Ok(game) => game,
        Err(SetupError::Kind(e)) => return refuse(StatusCode::BAD_REQUEST, "bad_game", e),
        Err(SetupError::Replay { ply, wire, reason }) => {
            let body = serde_json::json!({"error": "bad_move", "ply": ply, "message": format!("move {ply} `{wire}`: {reason}")});
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
        Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_position", e),
    };
    let think = req.think_ms.map_or(BOARD_THINK, |ms| {
        Duration::from_millis(ms.clamp(BOARD_THINK_RANGE.0, BOARD_THINK_RANGE.1))
    });
    let eval = if game.outcome().is_running() {
        let position = Position::of(&game, &steps, setup.mandatory_capture);
        match routes.analysts.evaluate(position, think, Some(PLACE_WAIT)).await {
            Ok(looked) => Some(looked.view),
            Err(AnalysisError::Busy) => {
                return refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    "busy",
                    "every engine place is taken",
                );
            }
            Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_position", e),
        }
    } else {
        None
    };
    let seats = game.seat_count();
    Json(Analysed {
        game: req.game,
        start: game.start_text(),
        position: game.position_text(),
        turn: game.turn().map(|s| s.index()),
        moves: game
            .history()
            .iter()
            .map(|p| LineMove {
                wire: p.wire.clone(),
                display: p.display.clone(),
                seat: p.seat.index(),
            })
            .collect(),
        legal: game.legal_moves().into_iter().map(LegalMove::from).collect(),
        outcome: OutcomeInfo::from_outcome(game.outcome(), seats),
        eval,
    })
    .into_response()
}

/// `POST /api/import`.
#[derive(Debug, Deserialize)]
struct ImportRequest {
    game: String,
    text: String,
}

async fn import(State(routes): State<Routes>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    if let Some(refused) = foreign(&headers, &routes.config.origins) {
        return refused;
    }
    let req: ImportRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_request", e),
    };
    match games::read_export(&req.game, &req.text) {
        Ok(game) => Json(serde_json::json!({
            "game": req.game,
            "start": game.start_text(),
            "moves": game.history().iter().map(|p| p.wire.clone()).collect::<Vec<_>>(),
        }))
        .into_response(),
        Err(SetupError::Kind(e)) => refuse(StatusCode::BAD_REQUEST, "bad_game", e),
        Err(e) => refuse(StatusCode::BAD_REQUEST, "bad_import", e),
    }
}
