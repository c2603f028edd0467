//! Game reviews: the engine looks at every position of a finished game, and each move is marked by what it lost
//! against the best move (see `parlor_ai::analysis` for the measures and docs/protocol.md for the answer).
//!
//! A review is asked for with `POST /api/game/{id}/review` and read with `GET`; it waits in a bounded queue (one
//! waiting review per player or address), runs on the node's engine places one position at a time (so the analysis
//! board and other reviews interleave with it), and is stored when done, so a game is analysed once per engine
//! version and thinking time.

use crate::analysis::{Analysts, EvalView, Looked, Position, foreign, refuse, unit};
use crate::games::{GameSetup, SetupError, Step, take_step};
use crate::hub::Hub;
use crate::identity::viewer;
use crate::loaded::load_visible_game;
use axum::extract::{ConnectInfo, FromRef, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use axum_extra::extract::cookie::{Key, SignedCookieJar};
use parlor_ai::analysis::{judge_four_player, judge_two_player};
use parlor_game::GameKind;
use parlor_store::Store;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// Reviews waiting on a node at most; more are refused as busy.
pub const MAX_WAITING: usize = 32;
/// The most a single move's loss counts in a player's average (a lost game's last blunders would hide the rest).
const AVERAGE_CAP: i32 = 1000;

/// A finished game's review (see docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's kind (`chess`, `draughts/english`, `chess4`, ...).
    pub game: String,
    /// What 100 of an evaluation is: `pawn`, `man` or `point`.
    pub unit: String,
    /// The thinking time per position.
    pub per_position_ms: u64,
    /// Every position, the start first.
    pub positions: Vec<PositionReview>,
    /// Every move: `moves[j]` leads from `positions[j]` to `positions[j + 1]`.
    pub moves: Vec<MoveReview>,
    /// A summary per seat.
    pub players: Vec<PlayerReview>,
}

/// One position of a review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionReview {
    /// Moves played before it.
    pub ply: usize,
    /// The engine's view.
    #[serde(flatten)]
    pub view: EvalView,
}

/// One move of a review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// 1-based.
    pub ply: usize,
    /// Who played it (colour index).
    pub seat: usize,
    /// Wire notation.
    pub wire: String,
    /// The game's notation.
    pub display: String,
    /// Hundredths of the unit lost against the best move.
    pub loss: i32,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub mark: Option<String>,
    /// The engine's move, when it preferred another.
    pub best: Option<String>,
    /// The same in the game's notation.
    pub best_display: Option<String>,
}

/// A seat's moves in sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerReview {
    /// Colour index.
    pub seat: usize,
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracy: usize,
    /// Mistakes.
    pub mistake: usize,
    /// Blunders.
    pub blunder: usize,
    /// Mean loss per move, hundredths (each move counted at most [`AVERAGE_CAP`]).
    pub average_loss: i32,
}

/// Where a review stands, as the API answers.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum ReviewState {
    /// Never asked.
    None,
    /// Waiting for its turn.
    Queued {
        /// Positions analysed (0).
        done: usize,
        /// Positions to analyse.
        total: usize,
        /// Reviews before it.
        ahead: usize,
    },
    /// Being analysed.
    Running {
        /// Positions analysed.
        done: usize,
        /// Positions to analyse.
        total: usize,
    },
    /// Finished.
    Done {
        /// The review.
        review: Box<Review>,
    },
}

/// A review waiting or running.
#[derive(Debug)]
struct Job {
    game_id: String,
    setup: GameSetup,
    steps: Vec<Step>,
    /// Who asked (a player id or an address): one waiting review each.
    asker: String,
    total: usize,
    done: usize,
    running: bool,
}

/// The reviews of this node.
pub struct Reviews {
    hub: Arc<Hub>,
    analysts: Arc<Analysts>,
    /// Thinking time per position.
    think: Duration,
    jobs: Mutex<VecDeque<Job>>,
    wake: Notify,
}

impl std::fmt::Debug for Reviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reviews")
            .field("think", &self.think)
            .finish_non_exhaustive()
    }
}

impl Reviews {
    /// Reviews on `analysts`, thinking `think` per position, with one worker per engine place (started here,
    /// ended with the hub's shutdown).
    pub fn start(hub: Arc<Hub>, analysts: Arc<Analysts>, think: Duration) -> Arc<Reviews> {
        let reviews = Arc::new(Reviews {
            hub: hub.clone(),
            analysts: analysts.clone(),
            think,
            jobs: Mutex::new(VecDeque::new()),
            wake: Notify::new(),
        });
        for _ in 0..analysts.slots {
            let worker = reviews.clone();
            let shutdown = hub.shutdown.clone();
            hub.tracker.spawn(async move {
                tokio::select! {
                    () = worker.work() => {}
                    () = shutdown.cancelled() => {}
                }
            });
        }
        reviews
    }

    /// The stored reviews' key: the release, the engines' fingerprint (their code, parameters and network) and the
    /// thinking time, so that a review is made again once any of them changes.
    fn version(&self) -> String {
        format!(
            "{}/{}/{}ms",
            env!("CARGO_PKG_VERSION"),
            parlor_ai::ENGINE_FINGERPRINT,
            self.think.as_millis()
        )
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, VecDeque<Job>> {
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The stored review of a game by this engine version and thinking time, if there is one that reads.
    ///
    /// # Errors
    /// The store's.
    pub async fn stored(&self, game_id: &str) -> Result<Option<Review>, parlor_store::StoreError> {
        let text = self.hub.store.review(game_id, &self.version()).await?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// Where the review of `game_id` stands in the queue, if it is there.
    fn queued(&self, game_id: &str) -> Option<ReviewState> {
        let jobs = self.jobs();
        let waiting_before = |i: usize| jobs.iter().take(i).filter(|j| !j.running).count();
        jobs.iter().position(|j| j.game_id == game_id).map(|i| {
            let job = &jobs[i];
            if job.running {
                ReviewState::Running {
                    done: job.done,
                    total: job.total,
                }
            } else {
                ReviewState::Queued {
                    done: 0,
                    total: job.total,
                    ahead: waiting_before(i),
                }
            }
        })
    }

    /// Queues a review unless the game's is there already; `None` when too many wait (or the asker's own).
    fn enqueue(&self, job: Job) -> Option<ReviewState> {
        let mut jobs = self.jobs();
        if jobs.iter().any(|j| j.game_id == job.game_id) {
            drop(jobs);
            return self.queued(&job.game_id);
        }
        let waiting = jobs.iter().filter(|j| !j.running).count();
        if waiting >= MAX_WAITING || jobs.iter().any(|j| !j.running && j.asker == job.asker) {
            return None;
        }
        let state = ReviewState::Queued {
            done: 0,
            total: job.total,
            ahead: waiting,
        };
        jobs.push_back(job);
        drop(jobs);
        self.wake.notify_one();
        Some(state)
    }

    /// Takes the oldest waiting review and marks it running.
    fn next(&self) -> Option<(String, GameSetup, Vec<Step>)> {
        let mut jobs = self.jobs();
        let job = jobs.iter_mut().find(|j| !j.running)?;
        job.running = true;
        Some((job.game_id.clone(), job.setup.clone(), job.steps.clone()))
    }

    fn progress(&self, game_id: &str, done: usize) {
        if let Some(job) = self.jobs().iter_mut().find(|j| j.game_id == game_id) {
            job.done = done;
        }
    }

    fn finish(&self, game_id: &str) {
        self.jobs().retain(|j| j.game_id != game_id);
    }

    /// A worker: runs waiting reviews one after another.
    async fn work(self: Arc<Self>) {
        loop {
            let Some((game_id, setup, steps)) = self.next() else {
                self.wake.notified().await;
                continue;
            };
            let progress = |done| self.progress(&game_id, done);
            match review_game(&self.analysts, self.think, &setup, &steps, progress).await {
                Ok(review) => match serde_json::to_string(&review) {
                    Ok(text) => {
                        let now = crate::table::now_ms();
                        if let Err(e) = self
                            .hub
                            .store
                            .save_review(&game_id, &self.version(), &text, now)
                            .await
                        {
                            tracing::warn!(game = %game_id, error = %e, "a review was not stored");
                        }
                    }
                    Err(e) => tracing::error!(game = %game_id, error = %e, "a review did not encode"),
                },
                Err(e) => tracing::warn!(game = %game_id, error = %e, "a review failed"),
            }
            self.finish(&game_id);
        }
    }
}

/// Reviews a game: every position searched for `think` on `analysts`' places, one at a time; `progress` hears how
/// many positions are done.
///
/// # Errors
/// [`ReviewError`] when the game does not replay or a search fails.
pub async fn review_game(
    analysts: &Analysts,
    think: Duration,
    setup: &GameSetup,
    steps: &[Step],
    progress: impl Fn(usize),
) -> Result<Review, ReviewError> {
    let kind = setup.kind()?;
    let mut game = setup.new_game()?;
    let mut looks: Vec<Looked> = Vec::new();
    let mut played = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if let Step::Move(wire) = step {
            let mut position = Position::of(&game, &steps[..i], setup.mandatory_capture);
            position.played = Some(wire.clone());
            looks.push(analysts.evaluate(position, think, None).await?);
            progress(looks.len());
        }
        take_step(&mut game, i, step)?;
        if let Step::Move(_) = step {
            played.extend(game.history().last().cloned());
        }
    }
    let last = Position::of(&game, steps, setup.mandatory_capture);
    looks.push(analysts.evaluate(last, think, None).await?);
    Ok(assemble(kind, &setup.game, think, &looks, &played))
}

/// A comment per move for an export with the review (`?review=1`): the evaluation after the move as `[%eval 0.35]`
/// (two-player games, for the first seat, in pawns or men; `[%eval #-2]` for a mate), or each army's value
/// (four-player chess), then the mark and the engine's move, for example `[%eval -9.12] Blunder. Best: Nf3`.
pub fn comments(review: &Review) -> Vec<String> {
    review
        .moves
        .iter()
        .map(|m| {
            let after = review.positions.get(m.ply).map(|p| &p.view);
            let eval = match after {
                // The game ended on the board: its result says it.
                Some(v) if v.best.is_none() => String::new(),
                Some(v) if v.eval.len() == 4 => {
                    let army = ["R", "B", "Y", "G"];
                    let values: Vec<String> = v
                        .eval
                        .iter()
                        .zip(army)
                        .map(|(e, a)| format!("{a} {:.2}", f64::from(*e) / 100.0))
                        .collect();
                    format!("Values: {}", values.join(" "))
                }
                Some(v) => match v.mate {
                    Some(n) => format!("[%eval #{n}]"),
                    None => format!(
                        "[%eval {:.2}]",
                        f64::from(v.eval.first().copied().unwrap_or(0)) / 100.0
                    ),
                },
                None => String::new(),
            };
            let mark = match m.mark.as_deref() {
                Some("inaccuracy") => " Inaccuracy.",
                Some("mistake") => " Mistake.",
                Some("blunder") => " Blunder.",
                _ => "",
            };
            let best = match (&m.mark, &m.best_display) {
                (Some(_), Some(best)) => format!(" Best: {best}"),
                _ => String::new(),
            };
            format!("{eval}{mark}{best}").trim().to_owned()
        })
        .collect()
}

/// The review from the positions' looks (`looks[j]` before `played[j]`, one more after the last move).
fn assemble(
    kind: GameKind,
    game: &str,
    think: Duration,
    looks: &[Looked],
    played: &[parlor_game::Played],
) -> Review {
    let moves: Vec<MoveReview> = played
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let seat = p.seat.index();
            let (before, after) = (&looks[j], &looks[j + 1]);
            let best = before.evaluation.best.as_deref();
            let (loss, mark) = if best == Some(p.wire.as_str()) {
                (0, None)
            } else if kind == GameKind::Chess4 {
                match before.played {
                    Some(score) => judge_four_player(before.evaluation.score, score),
                    None => (0, None),
                }
            } else {
                let value = |l: &Looked| l.evaluation.values.get(seat).copied().unwrap_or(0);
                judge_two_player(value(before), value(after))
            };
            let preferred = best.filter(|b| *b != p.wire);
            MoveReview {
                ply: j + 1,
                seat,
                wire: p.wire.clone(),
                display: p.display.clone(),
                loss,
                mark: mark.map(|m| m.as_str().to_owned()),
                best: preferred.map(str::to_owned),
                best_display: preferred.and(before.view.best_display.clone()),
            }
        })
        .collect();
    let seats = if kind == GameKind::Chess4 { 4 } else { 2 };
    let players = (0..seats)
        .map(|seat| {
            let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.seat == seat).collect();
            let count = |name: &str| mine.iter().filter(|m| m.mark.as_deref() == Some(name)).count();
            let total: i64 = mine.iter().map(|m| i64::from(m.loss.min(AVERAGE_CAP))).sum();
            PlayerReview {
                seat,
                moves: mine.len(),
                inaccuracy: count("inaccuracy"),
                mistake: count("mistake"),
                blunder: count("blunder"),
                average_loss: if mine.is_empty() {
                    0
                } else {
                    (total / mine.len() as i64) as i32
                },
            }
        })
        .collect();
    Review {
        game: game.to_owned(),
        unit: unit(kind).to_owned(),
        per_position_ms: think.as_millis() as u64,
        positions: looks
            .iter()
            .enumerate()
            .map(|(ply, l)| PositionReview {
                ply,
                view: l.view.clone(),
            })
            .collect(),
        moves,
        players,
    }
}

/// Why a review stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game does not replay.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A search failed.
    #[error("{0}")]
    Analysis(#[from] crate::analysis::AnalysisError),
}

/// `parlor bench review`: the time to review games of `plies` moves of `kind`, made by the engine playing itself
/// (medium, 4 plies deep, seeded), on one engine place at `think` per position; one line per run and the median.
///
/// # Errors
/// [`ReviewError`] when a game could not be made or reviewed.
pub async fn bench(
    kind: &str,
    plies: usize,
    think: Duration,
    runs: usize,
) -> Result<Vec<Duration>, ReviewError> {
    let setup = GameSetup {
        game: kind.to_owned(),
        start: None,
        first: 0,
        mandatory_capture: true,
        move_limit: None,
    };
    let analysts = Analysts::new(1);
    let mut times = Vec::new();
    for run in 0..runs {
        let steps = self_played(&setup, plies, run as u64)?;
        let moves = steps.len();
        let started = std::time::Instant::now();
        let review = review_game(&analysts, think, &setup, &steps, |_| {}).await?;
        let took = started.elapsed();
        let marks = review.moves.iter().filter(|m| m.mark.is_some()).count();
        println!(
            "{kind}: {moves} plies, {} positions, {:.2} s, {marks} moves marked",
            review.positions.len(),
            took.as_secs_f64()
        );
        times.push(took);
    }
    times.sort();
    if let Some(median) = times.get(times.len() / 2) {
        println!(
            "{kind}: median {:.2} s over {runs} runs at {} ms per position",
            median.as_secs_f64(),
            think.as_millis()
        );
    }
    Ok(times)
}

/// A game of at most `plies` moves the engine plays against itself (the first game of the seeds from `seed` on
/// that lasts `plies`, or the longest of 20).
fn self_played(setup: &GameSetup, plies: usize, seed: u64) -> Result<Vec<Step>, ReviewError> {
    let mut longest = Vec::new();
    for attempt in 0..20 {
        let mut game = setup.new_game()?;
        let mut steps = Vec::new();
        while steps.len() < plies && game.outcome().is_running() {
            let (start, moves) = crate::cpu::engine_position(game.as_ref(), &steps);
            let mut req = parlor_ai::Request::new(
                setup.kind()?,
                parlor_ai::Level::MEDIUM,
                parlor_ai::Limit::Depth(4),
            );
            req.start = start;
            req.moves = moves;
            req.seed = Some(seed * 100 + attempt);
            let Ok(choice) = parlor_ai::choose(&req) else {
                break;
            };
            if game.play(&choice.wire).is_err() {
                break;
            }
            steps.push(Step::Move(choice.wire));
        }
        if steps.len() >= plies {
            return Ok(steps);
        }
        if steps.len() > longest.len() {
            longest = steps;
        }
    }
    Ok(longest)
}

/// The review routes.
pub fn routes<S: Clone + Send + Sync + 'static>(reviews: Arc<Reviews>, key: Key) -> Router<S> {
    Router::new()
        .route("/api/game/{id}/review", get(read).post(ask))
        .with_state(Routes { reviews, key })
}

#[derive(Clone)]
struct Routes {
    reviews: Arc<Reviews>,
    key: Key,
}

impl FromRef<Routes> for Key {
    fn from_ref(routes: &Routes) -> Key {
        routes.key.clone()
    }
}

/// The answer for a state: 200 when there is nothing to wait for, 202 while it is queued or running.
fn answer(state: ReviewState) -> Response {
    let status = match state {
        ReviewState::Queued { .. } | ReviewState::Running { .. } => StatusCode::ACCEPTED,
        ReviewState::None | ReviewState::Done { .. } => StatusCode::OK,
    };
    (status, Json(state)).into_response()
}

/// The stored review of a game, or where its review stands here.
async fn state_of(reviews: &Reviews, game_id: &str) -> Result<ReviewState, Response> {
    if let Some(state) = reviews.queued(game_id) {
        return Ok(state);
    }
    match reviews.hub.store.review(game_id, &reviews.version()).await {
        Ok(Some(text)) => match serde_json::from_str::<Review>(&text) {
            Ok(review) => Ok(ReviewState::Done {
                review: Box::new(review),
            }),
            Err(e) => {
                tracing::warn!(game = %game_id, error = %e, "a stored review does not read; it is made again");
                Ok(ReviewState::None)
            }
        },
        Ok(None) => Ok(ReviewState::None),
        Err(e) => Err(refuse(StatusCode::SERVICE_UNAVAILABLE, "store", e)),
    }
}

async fn read(State(routes): State<Routes>, jar: SignedCookieJar, Path(id): Path<String>) -> Response {
    let viewer = viewer(&jar);
    if let Err(r) = load_visible_game(&routes.reviews.hub, viewer.as_deref(), &id).await {
        return not_found_or(r);
    }
    match state_of(&routes.reviews, &id).await {
        Ok(state) => answer(state),
        Err(r) => r,
    }
}

async fn ask(
    State(routes): State<Routes>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: SignedCookieJar,
    Path(id): Path<String>,
) -> Response {
    if let Some(refused) = foreign(&headers, &routes.reviews.hub.config.origins) {
        return refused;
    }
    let reviews = &routes.reviews;
    let viewer = viewer(&jar);
    let loaded = match load_visible_game(&reviews.hub, viewer.as_deref(), &id).await {
        Ok(l) => l,
        Err(r) => return not_found_or(r),
    };
    match state_of(reviews, &id).await {
        Ok(ReviewState::None) => {}
        Ok(state) => return answer(state),
        Err(r) => return r,
    }
    if loaded.game.outcome().is_running() {
        return refuse(StatusCode::CONFLICT, "live", "the game is still being played");
    }
    let moves = loaded.steps.iter().filter(|s| matches!(s, Step::Move(_))).count();
    let job = Job {
        game_id: id,
        setup: loaded.setup,
        steps: loaded.steps,
        asker: viewer.unwrap_or_else(|| {
            let ip = crate::proxy::client_ip(peer.ip(), &headers, &reviews.hub.config);
            crate::limit::address_key(ip).to_string()
        }),
        total: moves + 1,
        done: 0,
        running: false,
    };
    match reviews.enqueue(job) {
        Some(state) => answer(state),
        None => refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "busy",
            "too many reviews are waiting",
        ),
    }
}

/// A load failure as this API answers it: JSON with a code.
fn not_found_or(r: Response) -> Response {
    match r.status() {
        StatusCode::NOT_FOUND => refuse(StatusCode::NOT_FOUND, "no_game", "no such game"),
        status => refuse(status, "store", "the store did not answer"),
    }
}
