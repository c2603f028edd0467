//! One task per table: it owns the game, the clocks and the seats, takes commands from its inbox one at a time,
//! stores every change before acknowledging or broadcasting it, and publishes versioned events. A watcher that
//! comes back with its last version gets the events it missed, or the full state when they are too old.

pub mod command;
pub mod context;
pub mod spec;

pub use command::Cmd;
pub use context::{Context, End};
use spec::{SpecError, default_time, validate_spec};

use crate::clock::Clock;
use crate::cpu;
use crate::games::{GameSetup, Replayed, SeatMap, Step, replay_stored, table_view};
use crate::outbox::{ConnId, Outbox, encode};
use crate::rating;
use crate::record::{EventData, EventKind, Occupant, Settings, StoredEvent};
use crate::site::Hold;
use axum::extract::ws::Utf8Bytes;
use parlor_game::{AnyGame, EndReason, GameEvent, GameKind};
use parlor_protocol::RatingChange;
use parlor_protocol::{
    ChatLine, DrawAction, ErrorCode, Event, GameState, LegalMove, LobbyTable, MoveRecord, OutcomeInfo,
    PlayerInfo, SeatInfo, SeatSpec, ServerMsg, TableSpec, TableState, TimeControl,
};
use parlor_store::{GameRecord, TableRecord, Write, game_status, table_status};
use parlor_store::{Rating, Store};
use skillratings::glicko2::Glicko2Rating;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

/// A stored table that cannot be brought back.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Its settings column does not read.
    #[error("settings: {0}")]
    Settings(serde_json::Error),
    /// Its game is unknown.
    #[error(transparent)]
    Kind(#[from] parlor_game::ParseKindError),
    /// Its last game's setup does not read.
    #[error("game setup: {0}")]
    Setup(serde_json::Error),
    /// Its last game's seats do not read.
    #[error("game seats: {0}")]
    Seats(serde_json::Error),
    /// Its last game does not replay.
    #[error(transparent)]
    Replay(#[from] crate::games::SetupError),
}

/// A game event (resignation, draw agreement, ...) that was not applied; the words go back to the player.
#[derive(Debug, thiserror::Error)]
pub enum EventRefused {
    /// No game at the table.
    #[error("no game")]
    NoGame,
    /// The rules refuse it.
    #[error(transparent)]
    Rules(#[from] parlor_game::EventError),
    /// The store did not take it.
    #[error("could not be stored; try again")]
    NotStored,
}

/// Chat lines a table keeps for watchers who open it.
const CHAT_KEPT: usize = 50;

/// A table with nobody watching, no live game and no person seated closes after this long.
const IDLE_CLOSE: Duration = Duration::from_secs(30);
/// How soon a timed action that could not be stored is tried again.
const TIMER_RETRY: Duration = Duration::from_millis(250);
#[derive(Clone, Debug, Default)]
struct SeatState {
    occupant: Occupant,
    away_since: Option<Instant>,
    /// Time away before `away_since` since the seat last moved (or the game started): leaving and coming back
    /// every few seconds does not start the grace period again.
    away_before: Duration,
}

impl SeatState {
    /// When the seat's grace period ends, if its player is away and no CPU plays for them.
    fn grace_ends(&self, grace: Duration) -> Option<Instant> {
        let since = self.away_since.filter(|_| !self.occupant.took_over)?;
        Some(since + grace.saturating_sub(self.away_before))
    }

    /// The player is back: their time away counts toward the next absence in this turn.
    fn back(&mut self) -> bool {
        match self.away_since.take() {
            Some(since) => {
                self.away_before += since.elapsed();
                true
            }
            None => false,
        }
    }

    fn is_free(&self) -> bool {
        self.occupant.player_id.is_none() && self.occupant.cpu.is_none()
    }

    fn info(&self) -> SeatInfo {
        SeatInfo {
            player: self.occupant.player_id.clone().map(|id| PlayerInfo {
                id,
                name: self.occupant.name.clone().unwrap_or_default(),
            }),
            cpu: self.occupant.cpu.clone(),
            away: self.away_since.is_some() || self.occupant.took_over,
        }
    }
}

struct Live {
    id: String,
    setup: GameSetup,
    map: SeatMap,
    game: AnyGame,
    clock: Clock,
    steps: Vec<Step>,
    draw_offer: Option<u8>,
    event_seq: i32,
    aborted: bool,
    thinking: Option<(u32, Arc<AtomicBool>)>,
    ratings: Vec<RatingChange>,
    /// When the current turn began (for untimed games, which have no clock to end a turn).
    turn_since: Instant,
}

impl Live {
    fn is_over(&self) -> bool {
        self.aborted || !self.game.outcome().is_running()
    }

    fn turn(&self) -> Option<usize> {
        if self.aborted {
            None
        } else {
            self.game.turn().map(|s| self.map.to_table(s))
        }
    }

    fn ply(&self) -> u32 {
        self.game.history().len() as u32
    }

    fn legal(&self) -> Vec<LegalMove> {
        if self.is_over() {
            Vec::new()
        } else {
            self.game.legal_moves().iter().map(LegalMove::from).collect()
        }
    }

    fn outcome_info(&self) -> Option<OutcomeInfo> {
        if self.aborted {
            return Some(OutcomeInfo {
                result: "aborted".into(),
                places: Vec::new(),
                winner: None,
                reason: "aborted".into(),
                score: "*".into(),
            });
        }
        let seats = self.map_seats();
        let mut info = OutcomeInfo::from_outcome(self.game.outcome(), seats)?;
        if !info.places.is_empty() {
            info.places = self.map.table_order(&info.places);
        }
        info.winner = info
            .winner
            .map(|w| parlor_game::Seat::from_index(usize::from(w)).map_or(w, |s| self.map.to_table(s) as u8));
        Some(info)
    }

    fn map_seats(&self) -> usize {
        self.game.seat_count()
    }

    fn check(&self) -> Vec<[u8; 2]> {
        self.game
            .checked_kings()
            .into_iter()
            .map(parlor_protocol::table::coord)
            .collect()
    }

    fn state(&self, now: Instant) -> GameState {
        let (turn, points, eliminated) = table_view(self.game.as_ref(), &self.map);
        GameState {
            id: self.id.clone(),
            start: self.game.start_text(),
            position: self.game.position_text(),
            moves: self
                .game
                .history()
                .iter()
                .map(|p| MoveRecord {
                    seat: self.map.to_table(p.seat) as u8,
                    wire: p.wire.clone(),
                    display: p.display.clone(),
                })
                .collect(),
            turn: if self.aborted { None } else { turn },
            legal: self.legal(),
            clocks: self.clock.snapshot(now),
            points,
            eliminated,
            check: self.check(),
            outcome: self.outcome_info(),
            draw_offer: self.draw_offer,
        }
    }
}

/// A table's task state.
pub struct Table {
    id: String,
    code: Option<String>,
    spec: TableSpec,
    kind: GameKind,
    time: TimeControl,
    owner: String,
    seats: Vec<SeatState>,
    next_first: u8,
    game: Option<Live>,
    version: u64,
    log: VecDeque<(u64, Option<String>, Utf8Bytes)>,
    log_bytes: usize,
    watchers: HashMap<ConnId, Outbox>,
    rematch: BTreeSet<u8>,
    chat: VecDeque<ChatLine>,
    idle_since: Option<Instant>,
    /// Another node holds the table now: stop without writing.
    lost: bool,
    /// A timer whose action could not be stored fires again no earlier than this.
    retry_at: Option<Instant>,
    ctx: Arc<Context>,
    me: mpsc::WeakSender<Cmd>,
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn error(code: ErrorCode, message: impl Into<String>, table: &str) -> ServerMsg {
    ServerMsg::Error {
        code,
        message: message.into(),
        table: Some(table.to_owned()),
        ack: None,
    }
}

impl Table {
    /// A new table, its seats filled from the spec (the creator takes the first `me` seat or first open one).
    ///
    /// # Errors
    /// [`SpecError`] when the game is unknown or the seats do not fit it.
    pub fn create(
        ctx: Arc<Context>,
        id: String,
        code: Option<String>,
        spec: TableSpec,
        creator: PlayerInfo,
        guest: Option<PlayerInfo>,
        me: mpsc::WeakSender<Cmd>,
    ) -> Result<Table, SpecError> {
        let (kind, time) = validate_spec(&spec)?;
        let n = kind.seat_count();
        let mut seats = vec![SeatState::default(); n];
        let mut creator_seat = None;
        for (i, s) in spec.seats.iter().enumerate() {
            match s {
                SeatSpec::Open => {}
                SeatSpec::Me if creator_seat.is_none() => creator_seat = Some(i),
                SeatSpec::Me => {}
                SeatSpec::Cpu { level } => {
                    let level: cpu::Level = level.parse().map_err(|_| SpecError::CpuLevel(level.clone()))?;
                    seats[i].occupant.cpu = Some(level.name().to_owned());
                }
            }
        }
        let creator_seat = creator_seat.or_else(|| seats.iter().position(SeatState::is_free));
        let sit = |seats: &mut Vec<SeatState>, at: Option<usize>, who: &PlayerInfo| {
            if let Some(i) = at {
                seats[i].occupant.player_id = Some(who.id.clone());
                seats[i].occupant.name = Some(who.name.clone());
            }
        };
        sit(&mut seats, creator_seat, &creator);
        if let Some(guest) = &guest {
            let free = seats.iter().position(SeatState::is_free);
            sit(&mut seats, free, guest);
        }
        Ok(Table {
            id,
            code,
            spec: TableSpec {
                time: Some(time),
                ..spec
            },
            kind,
            time,
            owner: creator.id,
            seats,
            next_first: 0,
            game: None,
            version: 0,
            log: VecDeque::new(),
            log_bytes: 0,
            watchers: HashMap::new(),
            rematch: BTreeSet::new(),
            chat: VecDeque::new(),
            idle_since: None,
            lost: false,
            retry_at: None,
            ctx,
            me,
        })
    }

    /// A table restored from the store after a restart, with its last game if it had one: a live game goes on, a
    /// finished one is shown over and waits for a rematch. Every seated player starts away (nobody is connected
    /// yet); the running clock restarts now, giving back the outage.
    ///
    /// # Errors
    /// [`RestoreError`] when the stored settings or game cannot be read or do not replay.
    pub fn restore(
        ctx: Arc<Context>,
        record: &TableRecord,
        last: Option<&parlor_store::StoredGame>,
        me: mpsc::WeakSender<Cmd>,
    ) -> Result<Table, RestoreError> {
        let settings: Settings = serde_json::from_str(&record.settings).map_err(RestoreError::Settings)?;
        let kind: GameKind = settings.spec.game.parse()?;
        let time = settings.spec.time.unwrap_or_else(|| default_time(kind));
        let now = Instant::now();
        let seats = settings
            .seats
            .into_iter()
            .map(|occupant| {
                let away_since = occupant.player_id.as_ref().map(|_| now);
                SeatState {
                    occupant,
                    away_since,
                    away_before: Duration::ZERO,
                }
            })
            .collect();
        let mut table = Table {
            id: record.id.clone(),
            code: record.code.clone(),
            spec: settings.spec,
            kind,
            time,
            owner: record.owner.clone(),
            seats,
            next_first: settings.next_first,
            game: None,
            // Versions go on from a number no earlier copy of this table reached (the time in ms), so a client
            // of the former copy sees a gap and resyncs, never a stale "duplicate".
            version: u64::try_from(now_ms()).unwrap_or(0),
            log: VecDeque::new(),
            log_bytes: 0,
            watchers: HashMap::new(),
            rematch: BTreeSet::new(),
            chat: VecDeque::new(),
            idle_since: None,
            lost: false,
            retry_at: None,
            ctx,
            me,
        };
        if let Some(stored) = last {
            table.game = Some(table.restore_game(stored, now)?);
        }
        Ok(table)
    }

    fn restore_game(
        &mut self,
        stored: &parlor_store::StoredGame,
        now: Instant,
    ) -> Result<Live, RestoreError> {
        let setup: GameSetup = serde_json::from_str(&stored.game.setup).map_err(RestoreError::Setup)?;
        let occupants: Vec<Occupant> =
            serde_json::from_str(&stored.game.seats).map_err(RestoreError::Seats)?;
        // A live game's seats are its players'; after a game is over the table's own (stored with its settings)
        // are newer: a player may have stood up since.
        if stored.game.status == game_status::LIVE {
            for (seat, occupant) in self.seats.iter_mut().zip(occupants) {
                seat.away_since = occupant.player_id.as_ref().map(|_| now);
                seat.occupant = occupant;
            }
        }
        let map = SeatMap::new(self.kind, setup.first);
        let Replayed { game, steps, clocks } = replay_stored(&setup, stored, |_| {})?;
        let mut clock = match clocks {
            Some(c) => Clock::restore(self.time, &c),
            None => Clock::new(self.time, self.seats.len()),
        };
        let mut live = Live {
            id: stored.game.id.clone(),
            setup,
            map,
            game,
            clock: clock.clone(),
            steps,
            draw_offer: None,
            event_seq: stored.events.iter().map(|e| e.seq).max().unwrap_or(0),
            aborted: stored.game.status == game_status::ABORTED,
            thinking: None,
            ratings: Vec::new(),
            turn_since: Instant::now(),
        };
        if let Some(turn) = live.turn() {
            clock.start(turn, now);
        }
        live.clock = clock;
        Ok(live)
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The record to store when the table is created.
    pub fn record(&self) -> TableRecord {
        let now = now_ms();
        TableRecord {
            id: self.id.clone(),
            code: self.code.clone(),
            kind: self.spec.game.clone(),
            settings: self.settings_json(),
            status: table_status::OPEN.to_owned(),
            owner: self.owner.clone(),
            created_ms: now,
            updated_ms: now,
        }
    }

    fn settings_json(&self) -> String {
        let settings = Settings {
            spec: self.spec.clone(),
            seats: self.seats.iter().map(|s| s.occupant.clone()).collect(),
            next_first: self.next_first,
        };
        serde_json::to_string(&settings).unwrap_or_default()
    }

    fn seats_json(&self) -> String {
        serde_json::to_string(&self.seats.iter().map(|s| s.occupant.clone()).collect::<Vec<_>>())
            .unwrap_or_default()
    }

    fn is_private(&self) -> bool {
        self.spec.private
    }

    /// The lobby's view of this table.
    pub fn lobby_entry(&self) -> LobbyTable {
        LobbyTable {
            id: self.id.clone(),
            game: self.spec.game.clone(),
            time: self.time,
            rated: self.spec.rated,
            seats: self.seats.iter().map(SeatState::info).collect(),
            playing: self.game.as_ref().is_some_and(|g| !g.is_over()),
        }
    }

    /// Runs the table until it closes, another node takes it or the server shuts down; says which.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<Cmd>) -> End {
        self.load_chat().await;
        self.publish_lobby();
        // A table restored with a finished game waits for a rematch, as it did before the restart.
        if self.game.is_none() {
            self.maybe_start().await;
        }
        self.maybe_cpu();
        let shutdown = self.ctx.shutdown.clone();
        loop {
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = inbox.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = sleep_until(deadline.unwrap_or_else(far_future)), if deadline.is_some() => self.on_timer().await,
                () = shutdown.cancelled() => break,
            }
            if self.lost {
                break;
            }
            if self.should_close() {
                self.close().await;
                return End::Closed;
            }
        }
        if let Some(live) = &self.game
            && let Some((_, stop)) = &live.thinking
        {
            stop.store(true, Ordering::Relaxed);
        }
        if self.lost {
            tracing::warn!(table = %self.id, "another node holds this table now: stopping here");
            return End::Lost;
        }
        End::Stopped
    }

    /// Commits writes for this table. In a site, only while this node holds the table's lease, and fenced by
    /// its token: a node that lost the table can no longer write for it.
    async fn commit(&mut self, mut writes: Vec<Write>) -> Result<(), parlor_store::StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        match self.ctx.site.hold(&self.id) {
            Hold::Alone => {}
            Hold::Lease(epoch) => writes.insert(
                0,
                Write::Fenced {
                    table_id: self.id.clone(),
                    epoch,
                },
            ),
            Hold::Lost => {
                return Err(parlor_store::StoreError::Fenced(
                    "this server cannot renew its hold on the table".to_owned(),
                ));
            }
        }
        let result = self.ctx.persist.commit(writes).await;
        if matches!(&result, Err(parlor_store::StoreError::Fenced(_)))
            && matches!(self.ctx.site.hold(&self.id), Hold::Lease(_))
        {
            // The database says another node took the table while our lease looked fine: stop here.
            self.lost = true;
        }
        result
    }

    /// Loads the latest stored chat lines (a restored table), with their authors' names.
    async fn load_chat(&mut self) {
        let Ok(lines) = self.ctx.store.chat(&self.id, CHAT_KEPT as u32).await else {
            return;
        };
        let mut names: HashMap<String, String> = HashMap::new();
        for line in lines {
            if !names.contains_key(&line.player_id) {
                let name = self
                    .ctx
                    .store
                    .player(&line.player_id)
                    .await
                    .ok()
                    .flatten()
                    .map(|p| p.nickname);
                names.insert(line.player_id.clone(), name.unwrap_or_default());
            }
            let name = names.get(&line.player_id).cloned().unwrap_or_default();
            self.chat.push_back(ChatLine {
                from: PlayerInfo {
                    id: line.player_id,
                    name,
                },
                text: line.text,
                at_ms: line.at_ms,
            });
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over())
            && let Some((t, _)) = live.clock.deadline()
        {
            consider(t);
        }
        let grace = self.ctx.config.grace;
        for seat in &self.seats {
            if let Some(ends) = seat.grace_ends(grace) {
                consider(ends);
            }
        }
        if let Some((_, ends)) = self.untimed_turn_ends() {
            consider(ends);
        }
        if let Some(idle) = self.idle_since {
            consider(idle + IDLE_CLOSE);
        }
        match (next, self.retry_at) {
            (Some(n), Some(r)) => Some(n.max(r)),
            _ => next,
        }
    }

    /// In an untimed game where another person waits, the seat to move and when its turn has lasted too long
    /// ([`crate::config::UNTIMED_TURN`] unless configured otherwise); it then ends as if its player had left.
    fn untimed_turn_ends(&self) -> Option<(usize, Instant)> {
        let live = self
            .game
            .as_ref()
            .filter(|g| !g.is_over() && g.clock.is_untimed())?;
        let seat = live.turn()?;
        let mover = &self.seats[seat].occupant;
        let someone_waits = self
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| i != seat && s.occupant.player_id.is_some() && s.occupant.cpu.is_none());
        (mover.cpu.is_none() && mover.player_id.is_some() && someone_waits)
            .then(|| (seat, live.turn_since + self.ctx.config.untimed_turn))
    }

    fn should_close(&self) -> bool {
        self.idle_since.is_some_and(|t| Instant::now() >= t + IDLE_CLOSE)
    }

    /// Starts or stops the idle countdown: no watchers, no live game and no person seated.
    fn update_idle(&mut self) {
        let live = self.game.as_ref().is_some_and(|g| !g.is_over());
        let person = self
            .seats
            .iter()
            .any(|s| s.occupant.player_id.is_some() && !s.occupant.took_over);
        if self.watchers.is_empty() && !live && !person {
            self.idle_since.get_or_insert_with(Instant::now);
        } else {
            self.idle_since = None;
        }
    }

    async fn close(&mut self) {
        let _ = self
            .ctx
            .persist
            .commit(vec![Write::UpdateTable {
                id: self.id.clone(),
                status: Some(table_status::CLOSED.to_owned()),
                settings: None,
                updated_ms: now_ms(),
            }])
            .await;
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Open { outbox, since } => self.open(outbox, since).await,
            Cmd::Close { conn } => self.leave(conn),
            Cmd::Sit {
                outbox,
                seat,
                confirm,
            } => self.sit(&outbox, seat, confirm).await,
            Cmd::Stand { outbox } => self.stand(&outbox).await,
            Cmd::Move {
                outbox,
                ack,
                ply,
                wire,
            } => self.client_move(&outbox, ack, ply, &wire).await,
            Cmd::Resign { outbox } => self.resign(&outbox).await,
            Cmd::Draw { outbox, action } => self.draw(&outbox, action).await,
            Cmd::Abort { outbox } => self.abort(&outbox).await,
            Cmd::Rematch { outbox } => self.rematch(&outbox).await,
            Cmd::Chat { outbox, text } => self.chat(&outbox, text).await,
            Cmd::Renamed { player } => self.renamed(player),
            Cmd::CpuMoved { game_id, ply, wire } => self.cpu_moved(&game_id, ply, wire).await,
            Cmd::Evict => self.lost = true,
        }
        self.update_idle();
    }

    fn seat_of(&self, player_id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.occupant.player_id.as_deref() == Some(player_id))
    }

    fn spectator_count(&self) -> u32 {
        let seated: Vec<&str> = self
            .seats
            .iter()
            .filter_map(|s| s.occupant.player_id.as_deref())
            .collect();
        let mut ids: Vec<String> = self
            .watchers
            .values()
            .map(|o| o.session().id())
            .filter(|id| !seated.contains(&id.as_str()))
            .collect();
        ids.sort();
        ids.dedup();
        ids.len() as u32
    }

    fn state_for(&self, player_id: &str, viewer: Option<&crate::outbox::Session>) -> TableState {
        let now = Instant::now();
        TableState {
            id: self.id.clone(),
            code: self.code.clone(),
            spec: self.spec.clone(),
            version: self.version,
            seats: self.seats.iter().map(SeatState::info).collect(),
            game: self.game.as_ref().map(|g| g.state(now)),
            spectators: self.spectator_count(),
            rematch: self.rematch.iter().copied().collect(),
            you: self.seat_of(player_id).map(|s| s as u8),
            chat: self
                .chat
                .iter()
                .filter(|line| !viewer.is_some_and(|v| v.has_muted(&line.from.id)))
                .cloned()
                .collect(),
        }
    }

    fn send_state(&self, outbox: &Outbox) {
        outbox.send(&ServerMsg::Table {
            state: Box::new(self.state_for(&outbox.session().id(), Some(outbox.session()))),
        });
    }

    /// Publishes an event to every watcher and keeps it for resync.
    fn broadcast(&mut self, event: Event) {
        let author = match &event {
            Event::Chat { from, .. } => Some(from.id.clone()),
            _ => None,
        };
        self.version += 1;
        let text = encode(&ServerMsg::Event {
            table: self.id.clone(),
            v: self.version,
            event: Box::new(event),
        });
        self.watchers.retain(|_, outbox| match &author {
            Some(a) => outbox.send_chat(a, text.clone()),
            None => outbox.send_text(text.clone()),
        });
        self.log_bytes += text.len();
        self.log.push_back((self.version, author, text));
        // Kept by count and by bytes: at thousands of tables the log, not the sockets, would fill the memory.
        while self.log.len() > self.ctx.config.event_log
            || (self.log_bytes > self.ctx.config.event_log_bytes && self.log.len() > 1)
        {
            if let Some((_, _, old)) = self.log.pop_front() {
                self.log_bytes -= old.len();
            }
        }
    }

    fn broadcast_seat(&mut self, seat: usize) {
        let info = self.seats[seat].info();
        self.broadcast(Event::Seat {
            seat: seat as u8,
            info,
        });
        self.publish_lobby();
    }

    fn publish_lobby(&self) {
        if !self.is_private() {
            self.ctx.lobby.update(self.lobby_entry());
        }
    }

    async fn save_seats(&mut self) {
        let mut writes = vec![Write::UpdateTable {
            id: self.id.clone(),
            status: None,
            settings: Some(self.settings_json()),
            updated_ms: now_ms(),
        }];
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over()) {
            writes.push(Write::UpdateSeats {
                game_id: live.id.clone(),
                seats: self.seats_json(),
            });
        }
        if let Err(e) = self.commit(writes).await {
            tracing::warn!(table = %self.id, error = %e, "could not store seats");
        }
    }

    async fn open(&mut self, outbox: Outbox, since: Option<u64>) {
        let player = outbox.session().info();
        let was_spectators = self.spectator_count();
        self.watchers.insert(outbox.conn(), outbox.clone());
        // Events the client missed, if all are still kept and none is a chat line the viewer muted (never sent
        // to them, so the events would leave a gap); else the full state.
        let muted_since = |v: u64| {
            self.log.iter().any(|(ver, author, _)| {
                *ver > v && author.as_ref().is_some_and(|a| outbox.session().has_muted(a))
            })
        };
        match since {
            Some(v) if v == self.version => {}
            Some(v)
                if v < self.version
                    && self.log.front().is_some_and(|(first, _, _)| *first <= v + 1)
                    && !muted_since(v) =>
            {
                for (_, author, text) in self.log.iter().filter(|(ver, _, _)| *ver > v) {
                    match author {
                        Some(a) => outbox.send_chat(a, text.clone()),
                        None => outbox.send_text(text.clone()),
                    };
                }
            }
            _ => self.send_state(&outbox),
        }
        if let Some(seat) = self.seat_of(&player.id) {
            let s = &mut self.seats[seat];
            // A rename reaches only the tables the player has open: a seat takes the new name on return.
            let renamed = s.occupant.name.as_deref() != Some(player.name.as_str());
            if renamed {
                s.occupant.name = Some(player.name.clone());
            }
            let changed = s.back() || s.occupant.took_over || renamed;
            if s.occupant.took_over {
                // The player is back from the same browser: the seat is theirs again.
                s.occupant.took_over = false;
                s.occupant.cpu = None;
                if let Some(live) = self.game.as_mut()
                    && let Some((_, stop)) = live.thinking.take()
                {
                    stop.store(true, Ordering::Relaxed);
                }
                self.save_seats().await;
                self.record_event(EventKind::Reclaimed, seat).await;
            }
            if changed {
                self.broadcast_seat(seat);
            }
        }
        let now = self.spectator_count();
        if now != was_spectators {
            self.broadcast(Event::Spectators { count: now });
        }
    }

    fn leave(&mut self, conn: ConnId) {
        let Some(outbox) = self.watchers.remove(&conn) else {
            return;
        };
        let player = outbox.session().id();
        let still_here = self.watchers.values().any(|o| o.session().id() == player);
        if let Some(seat) = self.seat_of(&player).filter(|_| !still_here) {
            self.seats[seat].away_since = Some(Instant::now());
            self.broadcast_seat(seat);
        } else if !still_here && self.seat_of(&player).is_none() {
            let count = self.spectator_count();
            self.broadcast(Event::Spectators { count });
        }
    }

    fn renamed(&mut self, player: PlayerInfo) {
        if let Some(seat) = self.seat_of(&player.id) {
            self.seats[seat].occupant.name = Some(player.name);
            self.broadcast_seat(seat);
        }
    }

    async fn sit(&mut self, outbox: &Outbox, seat: Option<u8>, confirm: bool) {
        let player = outbox.session().info();
        if self.seat_of(&player.id).is_some() {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "you already sit at this table",
                &self.id,
            ));
            return;
        }
        if self.game.as_ref().is_some_and(|g| !g.is_over()) {
            outbox.send(&error(
                ErrorCode::TableFull,
                "a game is being played at this table",
                &self.id,
            ));
            return;
        }
        let target = match seat {
            Some(s) => usize::from(s),
            None => match self.seats.iter().position(SeatState::is_free) {
                Some(s) => s,
                None => {
                    outbox.send(&error(ErrorCode::TableFull, "no free seat", &self.id));
                    return;
                }
            },
        };
        if target >= self.seats.len() {
            outbox.send(&error(ErrorCode::NotAllowed, "no such seat", &self.id));
            return;
        }
        if !self.seats[target].is_free() {
            outbox.send(&error(ErrorCode::SeatTaken, "that seat is taken", &self.id));
            return;
        }
        let others: Vec<String> = self
            .seats
            .iter()
            .filter_map(|s| s.occupant.player_id.clone())
            .collect();
        for other in &others {
            if self.ctx.marks.has_blocked(other, &player.id) {
                outbox.send(&error(
                    ErrorCode::Blocked,
                    "a player at this table has blocked you",
                    &self.id,
                ));
                return;
            }
            if !confirm && self.ctx.marks.has_blocked(&player.id, other) {
                outbox.send(&error(
                    ErrorCode::ConfirmBlocked,
                    "a player you blocked sits at this table; join anyway?",
                    &self.id,
                ));
                return;
            }
        }
        let was_spectators = self.spectator_count();
        let s = &mut self.seats[target];
        s.occupant = Occupant {
            player_id: Some(player.id.clone()),
            name: Some(player.name),
            cpu: None,
            took_over: false,
        };
        s.away_since = if self.watchers.values().any(|o| o.session().id() == player.id) {
            None
        } else {
            Some(Instant::now())
        };
        self.rematch.clear();
        self.save_seats().await;
        self.broadcast_seat(target);
        self.spectators_changed(was_spectators);
        self.maybe_start().await;
    }

    async fn stand(&mut self, outbox: &Outbox) {
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            outbox.send(&error(
                ErrorCode::NotSeated,
                "you do not sit at this table",
                &self.id,
            ));
            return;
        };
        if self.game.as_ref().is_some_and(|g| !g.is_over()) {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "the game is on: resign or abort first",
                &self.id,
            ));
            return;
        }
        let was_spectators = self.spectator_count();
        self.seats[seat] = SeatState::default();
        self.rematch.remove(&(seat as u8));
        self.save_seats().await;
        self.broadcast_seat(seat);
        self.spectators_changed(was_spectators);
    }

    /// A watcher who sits down is no longer a spectator, and one who stands up (still watching) is one again.
    fn spectators_changed(&mut self, was: u32) {
        let count = self.spectator_count();
        if count != was {
            self.broadcast(Event::Spectators { count });
        }
    }

    /// Starts a game when every seat is filled and none is being played.
    async fn maybe_start(&mut self) {
        if self.game.as_ref().is_some_and(|g| !g.is_over()) || self.seats.iter().any(SeatState::is_free) {
            return;
        }
        let first = self.next_first;
        let setup = GameSetup {
            game: self.spec.game.clone(),
            start: None,
            first,
            mandatory_capture: self.spec.rules.mandatory_capture,
            move_limit: self.spec.rules.move_limit,
        };
        let game = match setup.new_game() {
            Ok(g) if g.outcome().is_running() => g,
            Ok(_) => {
                tracing::error!(table = %self.id, "the table's rules end the game before it starts: not started");
                return;
            }
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "cannot start game");
                return;
            }
        };
        if self.spec.rules.rotate_first {
            self.next_first = ((usize::from(first) + 1) % self.seats.len()) as u8;
        }
        let id = uuid::Uuid::now_v7().to_string();
        let record = GameRecord {
            id: id.clone(),
            table_id: self.id.clone(),
            kind: self.spec.game.clone(),
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            seats: self.seats_json(),
            rated: self.spec.rated,
            status: game_status::LIVE.to_owned(),
            result: None,
            clocks: None,
            created_ms: now_ms(),
            ended_ms: None,
        };
        let writes = vec![
            Write::CreateGame(record),
            Write::UpdateTable {
                id: self.id.clone(),
                status: Some(table_status::PLAYING.to_owned()),
                settings: Some(self.settings_json()),
                updated_ms: now_ms(),
            },
        ];
        if let Err(e) = self.commit(writes).await {
            tracing::error!(table = %self.id, error = %e, "cannot store new game");
            self.next_first = first;
            return;
        }
        let map = SeatMap::new(self.kind, first);
        let mut live = Live {
            id,
            setup,
            map,
            game,
            clock: Clock::new(self.time, self.seats.len()),
            steps: Vec::new(),
            draw_offer: None,
            event_seq: 0,
            aborted: false,
            thinking: None,
            ratings: Vec::new(),
            turn_since: Instant::now(),
        };
        let now = Instant::now();
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let state = live.state(now);
        self.game = Some(live);
        self.rematch.clear();
        for seat in &mut self.seats {
            seat.away_before = Duration::ZERO;
        }
        self.ctx.metrics.games_started.fetch_add(1, Ordering::Relaxed);
        self.ctx.metrics.live_games.fetch_add(1, Ordering::Relaxed);
        self.broadcast(Event::Started { game: state });
        self.publish_lobby();
        self.maybe_cpu();
    }

    /// Checks that `outbox`'s player sits here and the game is running; returns the table seat.
    fn playing_seat(&self, outbox: &Outbox, ack: Option<u64>) -> Option<usize> {
        let refuse = |code, message: &str| {
            outbox.send(&ServerMsg::Error {
                code,
                message: message.to_owned(),
                table: Some(self.id.clone()),
                ack,
            });
            None
        };
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            return refuse(ErrorCode::NotSeated, "spectators cannot play; take a seat first");
        };
        match &self.game {
            Some(live) if !live.is_over() => Some(seat),
            _ => refuse(ErrorCode::GameOver, "no game is being played"),
        }
    }

    async fn client_move(&mut self, outbox: &Outbox, ack: u64, ply: u32, wire: &str) {
        let refuse = |code, message: String| {
            outbox.send(&ServerMsg::Error {
                code,
                message,
                table: Some(self.id.clone()),
                ack: Some(ack),
            });
        };
        if self.ctx.site.hold(&self.id) == Hold::Lost {
            // This copy may be stale (the table may be on another node now): answer nothing else.
            refuse(
                ErrorCode::Unavailable,
                "this table is moving to another server; try again in a moment".to_owned(),
            );
            return;
        }
        let Some(seat) = self.playing_seat(outbox, Some(ack)) else {
            return;
        };
        let Some(live) = &self.game else { return };
        if live.ply() != ply {
            self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
            refuse(
                ErrorCode::StaleMove,
                format!(
                    "that move was chosen after {ply} moves; the game has {}",
                    live.ply()
                ),
            );
            return;
        }
        if live.turn() != Some(seat) || self.seats[seat].occupant.cpu.is_some() {
            self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
            refuse(ErrorCode::NotYourTurn, "it is not your turn".to_owned());
            return;
        }
        self.play(seat, wire, Some((outbox, ack))).await;
    }

    /// Plays a move for `seat`: refuses it with a reason, or stores it, then acknowledges and broadcasts it.
    async fn play(&mut self, seat: usize, wire: &str, reply: Option<(&Outbox, u64)>) {
        let table = self.id.clone();
        let refuse = |code, message: String| {
            if let Some((outbox, ack)) = reply {
                outbox.send(&ServerMsg::Error {
                    code,
                    message,
                    table: Some(table.clone()),
                    ack: Some(ack),
                });
            }
        };
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else { return };
        // A CPU playing a four-player seat is never flagged: its turn starts again when it runs out (see `flag`),
        // and a search that finished late on a busy machine still plays.
        let cpu_of_four = reply.is_none() && live.game.seat_count() > 2;
        if let Some((deadline, _)) = live.clock.deadline()
            && now >= deadline
            && !cpu_of_four
        {
            refuse(ErrorCode::GameOver, "your time ran out".to_owned());
            self.flag().await;
            return;
        }
        let clock_before = live.clock.clone();
        // Taken before the move: a move the store does not take is undone by putting this back.
        let game_before = live.game.clone();
        let played = match live.game.play(wire) {
            Ok(p) => p,
            Err(e) => {
                self.ctx.metrics.moves_refused.fetch_add(1, Ordering::Relaxed);
                let code = if e.kind == parlor_game::MoveErrorKind::GameOver {
                    ErrorCode::GameOver
                } else {
                    ErrorCode::IllegalMove
                };
                refuse(code, e.reason);
                return;
            }
        };
        let _ = live.clock.finish_turn(now);
        live.steps.push(Step::Move(played.wire.clone()));
        let ended = live.is_over();
        if ended {
            live.clock.halt(now);
        }
        let ply = live.ply();
        let mut writes = vec![Write::Move(parlor_store::MoveRecord {
            game_id: live.id.clone(),
            ply: ply as i32,
            seat: seat as i32,
            wire: played.wire.clone(),
            clocks: serde_json::to_string(&live.clock.stored_ms()).unwrap_or_default(),
            at_ms: now_ms(),
        })];
        if ended {
            writes.extend(self.finish_writes().await);
        }
        let mut told_slow = false;
        let stored = {
            let commit = self.commit(writes);
            tokio::pin!(commit);
            tokio::select! {
                result = &mut commit => result,
                () = tokio::time::sleep(crate::persist::COMMIT_PATIENCE) => {
                    // The player hears at once that the store is slow; the table still waits for the outcome,
                    // since the move may yet be stored (then it is broadcast as usual).
                    refuse(
                        ErrorCode::Unavailable,
                        "the server cannot store moves right now; your move waits".to_owned(),
                    );
                    told_slow = true;
                    commit.await
                }
            }
        };
        if let Err(e) = stored {
            tracing::debug!(table = %self.id, error = %e, "could not store a move; refusing it");
            if let Some(live) = self.game.as_mut() {
                live.steps.pop();
                live.game = game_before;
                live.clock = clock_before;
            }
            match e {
                parlor_store::StoreError::Fenced(_) => refuse(
                    ErrorCode::Unavailable,
                    "this table is moving to another server; try again in a moment".to_owned(),
                ),
                _ if told_slow => {}
                _ => refuse(
                    ErrorCode::Unavailable,
                    "the server cannot store moves right now; try again in a moment".to_owned(),
                ),
            }
            return;
        }
        self.seats[seat].away_before = Duration::ZERO;
        let Some(live) = self.game.as_mut() else { return };
        let now = Instant::now();
        live.turn_since = now;
        if let Some(turn) = live.turn() {
            live.clock.start(turn, now);
        }
        let declined = live.draw_offer.filter(|s| usize::from(*s) != seat);
        if declined.is_some() {
            live.draw_offer = None;
        }
        let (turn, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let event = Event::Moved {
            ply,
            seat: seat as u8,
            wire: played.wire,
            display: played.display,
            position: live.game.position_text(),
            turn: if ended { None } else { turn },
            legal: live.legal(),
            clocks: live.clock.snapshot(now),
            points,
            eliminated,
            check: live.check(),
        };
        self.ctx.metrics.moves.fetch_add(1, Ordering::Relaxed);
        if let Some((outbox, ack)) = reply {
            outbox.send(&ServerMsg::Ack {
                table: self.id.clone(),
                ack,
                version: self.version + 1,
            });
        }
        self.broadcast(event);
        if declined.is_some() {
            self.broadcast(Event::DrawDeclined { seat: seat as u8 });
        }
        if ended {
            self.announce_end();
        } else {
            self.maybe_cpu();
        }
    }

    /// The writes that close a finished game (result, table back to open).
    /// The writes that close a finished game: its result, the ratings of a rated game, the table open again.
    async fn finish_writes(&mut self) -> Vec<Write> {
        let mut writes = self.rating_writes().await;
        let Some(live) = &self.game else { return Vec::new() };
        let status = if live.aborted {
            game_status::ABORTED
        } else {
            game_status::FINISHED
        };
        let result = live.outcome_info().and_then(|o| serde_json::to_string(&o).ok());
        writes.push(Write::Finish {
            game_id: live.id.clone(),
            status: status.to_owned(),
            result,
            ended_ms: now_ms(),
        });
        writes.push(Write::UpdateTable {
            id: self.id.clone(),
            status: Some(table_status::OPEN.to_owned()),
            settings: Some(self.settings_json()),
            updated_ms: now_ms(),
        });
        writes
    }

    /// Glicko-2 updates of a finished rated game between people (none for casual or aborted games), written in
    /// the same transaction as the result.
    async fn rating_writes(&mut self) -> Vec<Write> {
        let Some(live) = &self.game else { return Vec::new() };
        if !self.spec.rated || live.aborted {
            return Vec::new();
        }
        let Some(outcome) = live.outcome_info() else {
            return Vec::new();
        };
        let players: Option<Vec<String>> = self
            .seats
            .iter()
            .map(|s| {
                if s.occupant.cpu.is_some() && !s.occupant.took_over {
                    None
                } else {
                    s.occupant.player_id.clone()
                }
            })
            .collect();
        let Some(players) = players else { return Vec::new() };
        let pool = self.spec.game.clone();
        let game_id = live.id.clone();
        let mut stored = Vec::new();
        for player in &players {
            stored.push(self.ctx.store.rating(player, &pool).await.ok().flatten());
        }
        let before: Vec<Glicko2Rating> = stored
            .iter()
            .map(|r| {
                r.as_ref().map_or(rating::START, |r| Glicko2Rating {
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: r.volatility,
                })
            })
            .collect();
        let after = rating::update(&before, &outcome.places);
        let mut writes = Vec::new();
        let mut changes = Vec::new();
        for (seat, player) in players.iter().enumerate() {
            writes.push(Write::Rating {
                rating: Rating {
                    player_id: player.clone(),
                    pool: pool.clone(),
                    rating: after[seat].rating,
                    deviation: after[seat].deviation,
                    volatility: after[seat].volatility,
                    games: stored[seat].as_ref().map_or(0, |r| r.games) + 1,
                    updated_ms: now_ms(),
                },
                game_id: game_id.clone(),
                before: before[seat].rating,
            });
            changes.push(RatingChange {
                seat: seat as u8,
                before: before[seat].rating,
                after: after[seat].rating,
                provisional: after[seat].deviation > rating::PROVISIONAL_DEVIATION,
            });
        }
        if let Some(live) = self.game.as_mut() {
            live.ratings = changes;
        }
        writes
    }

    fn announce_end(&mut self) {
        let Some(live) = &self.game else { return };
        let Some(outcome) = live.outcome_info() else {
            return;
        };
        let (_, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let clocks = live.clock.snapshot(Instant::now());
        let abandoned = live.game.outcome().reason() == Some(EndReason::Abandoned);
        self.ctx.metrics.games_finished.fetch_add(1, Ordering::Relaxed);
        self.ctx.metrics.live_games.fetch_sub(1, Ordering::Relaxed);
        self.broadcast(Event::Ended {
            outcome,
            clocks,
            points,
            eliminated,
            ratings: live.ratings.clone(),
        });
        // A player removed for abandoning frees the seat so the table can go on.
        if abandoned {
            let gone: Vec<usize> = (0..self.seats.len())
                .filter(|s| self.seats[*s].away_since.is_some() && !self.seats[*s].occupant.took_over)
                .collect();
            for seat in gone {
                self.seats[seat] = SeatState::default();
                self.broadcast_seat(seat);
            }
        }
        self.publish_lobby();
    }

    /// Stores a game event (seq, ply, seat, clocks) so a restart replays it in place.
    async fn record_event(&mut self, kind: EventKind, seat: usize) -> bool {
        let Some(live) = self.game.as_mut() else {
            return false;
        };
        live.event_seq += 1;
        let event = StoredEvent {
            kind,
            data: EventData {
                clocks: Some(live.clock.stored_ms()),
                ply: live.ply(),
                seat,
            },
        };
        let writes = vec![Write::Event(event.to_record(&live.id, live.event_seq, now_ms()))];
        match self.commit(writes).await {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "could not store game event");
                false
            }
        }
    }

    /// Applies a game event (resign, timeout, abandon, draw agreed) for table seat `seat`: stores it, then
    /// announces the end, or (four-player) the elimination and the next turn.
    async fn game_event(
        &mut self,
        event: GameEvent,
        kind: EventKind,
        seat: usize,
    ) -> Result<(), EventRefused> {
        let now = Instant::now();
        let Some(live) = self.game.as_mut() else {
            return Err(EventRefused::NoGame);
        };
        let before = live.clock.clone();
        let game_before = live.game.clone();
        let turn_before = live.turn();
        live.game.apply(event)?;
        live.steps.push(Step::Event(event));
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let ended = live.is_over();
        if ended {
            live.clock.halt(now);
        } else if live.turn() != turn_before {
            // The eliminated seat was to move: its turn ends without charging a move.
            live.clock.halt(now);
        }
        let extra = if ended {
            self.finish_writes().await
        } else {
            Vec::new()
        };
        let mut ok = self.record_event(kind, seat).await;
        if ok && !extra.is_empty() {
            ok = self.commit(extra).await.is_ok();
        }
        let Some(live) = self.game.as_mut() else {
            return Err(EventRefused::NoGame);
        };
        if !ok {
            live.steps.pop();
            live.game = game_before;
            live.clock = before;
            return Err(EventRefused::NotStored);
        }
        if ended {
            self.announce_end();
            return Ok(());
        }
        let now = Instant::now();
        if live.clock.running().is_none()
            && let Some(turn) = live.turn()
        {
            live.clock.start(turn, now);
        }
        let (turn, points, eliminated) = table_view(live.game.as_ref(), &live.map);
        let event = Event::Eliminated {
            seat: seat as u8,
            reason: kind.as_str().to_owned(),
            turn,
            legal: live.legal(),
            clocks: live.clock.snapshot(now),
            points,
            eliminated,
        };
        self.broadcast(event);
        self.maybe_cpu();
        Ok(())
    }

    async fn resign(&mut self, outbox: &Outbox) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = &self.game else { return };
        let event = GameEvent::Resign(live.map.to_game(seat));
        if let Err(e) = self.game_event(event, EventKind::Resignation, seat).await {
            outbox.send(&error(ErrorCode::NotAllowed, e.to_string(), &self.id));
        }
    }

    async fn draw(&mut self, outbox: &Outbox, action: DrawAction) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = self.game.as_mut() else { return };
        if live.game.seat_count() != 2 {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "draw offers are for two-player games",
                &self.id,
            ));
            return;
        }
        let pending = live.draw_offer;
        match action {
            DrawAction::Offer | DrawAction::Accept if pending.is_some_and(|s| usize::from(s) != seat) => {
                live.draw_offer = None;
                if let Err(e) = self
                    .game_event(GameEvent::DrawAgreed, EventKind::Agreement, seat)
                    .await
                {
                    outbox.send(&error(ErrorCode::NotAllowed, e.to_string(), &self.id));
                }
            }
            DrawAction::Offer if pending.is_none() => {
                live.draw_offer = Some(seat as u8);
                self.broadcast(Event::DrawOffered { seat: seat as u8 });
            }
            DrawAction::Decline if pending.is_some_and(|s| usize::from(s) != seat) => {
                live.draw_offer = None;
                self.broadcast(Event::DrawDeclined { seat: seat as u8 });
            }
            _ => {
                outbox.send(&error(
                    ErrorCode::NotAllowed,
                    "there is no draw offer to answer",
                    &self.id,
                ));
            }
        }
    }

    async fn abort(&mut self, outbox: &Outbox) {
        let Some(seat) = self.playing_seat(outbox, None) else {
            return;
        };
        let Some(live) = self.game.as_mut() else { return };
        if live.ply() as usize >= live.game.seat_count() {
            outbox.send(&error(
                ErrorCode::NotAllowed,
                "a game can be aborted only before everyone has moved",
                &self.id,
            ));
            return;
        }
        live.aborted = true;
        live.clock.halt(Instant::now());
        if let Some((_, stop)) = live.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let writes = self.finish_writes().await;
        if self.record_event(EventKind::Aborted, seat).await && self.commit(writes).await.is_ok() {
            self.announce_end();
        } else if let Some(live) = self.game.as_mut() {
            live.aborted = false;
            outbox.send(&error(
                ErrorCode::Internal,
                "could not abort; try again",
                &self.id,
            ));
        }
    }

    async fn rematch(&mut self, outbox: &Outbox) {
        let Some(seat) = self.seat_of(&outbox.session().id()) else {
            outbox.send(&error(
                ErrorCode::NotSeated,
                "you do not sit at this table",
                &self.id,
            ));
            return;
        };
        if !self.game.as_ref().is_some_and(Live::is_over) {
            outbox.send(&error(ErrorCode::NotAllowed, "the game is not over", &self.id));
            return;
        }
        self.rematch.insert(seat as u8);
        let seats = self.rematch.iter().copied().collect();
        self.broadcast(Event::Rematch { seats });
        let people: Vec<usize> = (0..self.seats.len())
            .filter(|s| self.seats[*s].occupant.player_id.is_some())
            .collect();
        if people.iter().all(|s| self.rematch.contains(&(*s as u8))) {
            for seat in &mut self.seats {
                if seat.occupant.took_over {
                    seat.occupant.took_over = false;
                    seat.occupant.cpu = None;
                }
            }
            self.maybe_start().await;
        }
    }

    async fn chat(&mut self, outbox: &Outbox, text: String) {
        let from = outbox.session().info();
        // Chat is for those at the table: knowing a table's id is not enough to write to it.
        if !self.watchers.contains_key(&outbox.conn()) && self.seat_of(&from.id).is_none() {
            outbox.send(&error(
                ErrorCode::NotAtTable,
                "open the table to chat there",
                &self.id,
            ));
            return;
        }
        self.chat.push_back(ChatLine {
            from: from.clone(),
            text: text.clone(),
            at_ms: now_ms(),
        });
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        if let Err(e) = self.ctx.store.add_chat(&self.id, &from.id, &text, now_ms()).await {
            tracing::warn!(table = %self.id, error = %e, "could not store chat");
        }
        self.broadcast(Event::Chat {
            from,
            text,
            at_ms: now_ms(),
        });
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        if let Some(live) = self.game.as_ref().filter(|g| !g.is_over())
            && let Some((deadline, _)) = live.clock.deadline()
            && now >= deadline
        {
            self.flag().await;
        }
        let grace = self.ctx.config.grace;
        let expired: Vec<usize> = (0..self.seats.len())
            .filter(|s| self.seats[*s].grace_ends(grace).is_some_and(|t| now >= t))
            .collect();
        for seat in expired {
            self.grace_expired(seat).await;
        }
        if let Some((seat, ends)) = self.untimed_turn_ends()
            && now >= ends
        {
            tracing::info!(table = %self.id, seat, "an untimed turn lasted too long: treated as an absence");
            self.grace_expired(seat).await;
        }
        // A flag or an abandonment that could not be stored (the store, or this node's hold on the table, is
        // away) is tried again a little later, not in a busy loop.
        self.retry_at = None;
        if self.next_deadline().is_some_and(|d| d <= now) {
            self.retry_at = Some(now + TIMER_RETRY);
        }
    }

    /// The running seat's clock ran out. In four-player chess a CPU takes the seat over (its player may come back)
    /// and the turn starts again for it; otherwise the seat loses on time.
    async fn flag(&mut self) {
        let Some(live) = self.game.as_mut() else { return };
        let Some(seat) = live.turn() else { return };
        if live.game.seat_count() > 2 {
            live.clock.start(seat, Instant::now());
            if self.seats[seat].occupant.cpu.is_none() {
                self.take_over(seat).await;
            }
            self.maybe_cpu();
            return;
        }
        let event = GameEvent::Timeout(live.map.to_game(seat));
        if let Err(e) = self.game_event(event, EventKind::Timeout, seat).await {
            tracing::error!(table = %self.id, error = %e, "timeout not applied");
        }
    }

    /// A seated player stayed away past the grace period.
    async fn grace_expired(&mut self, seat: usize) {
        let live = self.game.as_ref().filter(|g| !g.is_over());
        match live {
            None => {
                // No game running: free the seat.
                self.seats[seat] = SeatState::default();
                self.rematch.remove(&(seat as u8));
                self.save_seats().await;
                self.broadcast_seat(seat);
            }
            Some(live) if live.game.seat_count() == 2 => {
                let event = GameEvent::Abandon(live.map.to_game(seat));
                if let Err(e) = self.game_event(event, EventKind::Abandoned, seat).await {
                    tracing::error!(table = %self.id, error = %e, "abandon not applied");
                }
            }
            Some(_) => {
                self.take_over(seat).await;
                self.maybe_cpu();
            }
        }
    }

    /// Four players: a CPU plays the seat until its player comes back.
    async fn take_over(&mut self, seat: usize) {
        let s = &mut self.seats[seat];
        s.occupant.took_over = true;
        s.occupant.cpu = Some(cpu::TAKEOVER.name().to_owned());
        self.save_seats().await;
        self.record_event(EventKind::CpuTookOver, seat).await;
        self.broadcast_seat(seat);
    }

    /// Starts a CPU search if a CPU is to move and none is thinking about this position.
    fn maybe_cpu(&mut self) {
        let Some(live) = self.game.as_mut().filter(|g| !g.is_over()) else {
            return;
        };
        let Some(turn) = live.turn() else { return };
        let Some(level) = self.seats[turn]
            .occupant
            .cpu
            .as_deref()
            .and_then(|l| l.parse::<cpu::Level>().ok())
        else {
            return;
        };
        let ply = live.ply();
        if live.thinking.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        live.thinking = Some((ply, stop.clone()));
        let budget = cpu::budget(&live.clock, turn, Instant::now(), level);
        let request = cpu::Request {
            kind: self.kind,
            steps: live.steps.clone(),
            setup: live.setup.clone(),
            level,
            budget,
            stop,
        };
        let game_id = live.id.clone();
        let me = self.me.clone();
        tokio::task::spawn_blocking(move || {
            let wire = cpu::choose(&request);
            if let Some(tx) = me.upgrade() {
                let _ = tx.try_send(Cmd::CpuMoved { game_id, ply, wire });
            }
        });
    }

    async fn cpu_moved(&mut self, game_id: &str, ply: u32, wire: Option<String>) {
        let Some(live) = self.game.as_mut() else { return };
        if live.id != game_id || live.ply() != ply || live.is_over() {
            return;
        }
        live.thinking = None;
        let Some(turn) = live.turn() else { return };
        if self.seats[turn].occupant.cpu.is_none() {
            return;
        }
        match wire {
            Some(wire) => self.play(turn, &wire, None).await,
            None => tracing::error!(table = %self.id, "CPU found no move"),
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}
