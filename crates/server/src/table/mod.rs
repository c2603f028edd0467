//! One task per table: it owns the game, the clocks and the seats, takes commands from its inbox one at a time,
//! stores every change before acknowledging or broadcasting it, and publishes versioned events. A watcher that
//! comes back with its last version gets the events it missed, or the full state when they are too old.

pub mod command;
pub mod context;
pub mod spec;

mod chat;
mod lifecycle;
mod live;
mod play;
mod ratings;
mod seats;
mod takeback;
mod timers;

pub use command::Cmd;
pub use context::{Context, End};
pub use lifecycle::EventRefused;
use live::Live;
use seats::SeatState;
use spec::{SpecError, default_time, validate_spec};
use timers::far_future;

use crate::clock::Clock;
use crate::cpu;
use crate::games::{GameSetup, Replayed, SeatMap, replay_stored};
use crate::metrics::Stage;
use crate::outbox::{ConnId, Outbox, encode};
use crate::record::{Occupant, Settings};
use crate::site::Hold;
use axum::extract::ws::Utf8Bytes;
use parlor_game::GameKind;
use parlor_protocol::{
    ChatLine, ErrorCode, Event, LobbyTable, PlayerInfo, SeatSpec, ServerMsg, TableSpec, TableState,
    TimeControl,
};
use parlor_store::{TableRecord, Write, game_status, table_status};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
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

/// A table's task state.
pub struct Table {
    id: String,
    code: Option<String>,
    spec: TableSpec,
    kind: GameKind,
    time: TimeControl,
    owner: String,
    /// When the table was made (ms since the Unix epoch).
    created_ms: i64,
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
    me: mpsc::WeakSender<Box<Cmd>>,
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
        me: mpsc::WeakSender<Box<Cmd>>,
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
            created_ms: now_ms(),
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
        me: mpsc::WeakSender<Box<Cmd>>,
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
            created_ms: record.created_ms,
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
            events: Live::events_of(&steps),
            draw_offer: None,
            takeback_offer: None,
            event_seq: stored.events.iter().map(|e| e.seq).max().unwrap_or(0),
            rows: stored.moves.len() as u32,
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
            created_ms: self.created_ms,
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
            host: self.host(),
            created_ms: self.created_ms,
        }
    }

    /// The table's creator while they sit here, else the first person seated.
    fn host(&self) -> Option<PlayerInfo> {
        let people = || self.seats.iter().filter(|s| s.occupant.player_id.is_some());
        let seat = people()
            .find(|s| s.occupant.player_id.as_deref() == Some(self.owner.as_str()))
            .or_else(|| people().next())?;
        seat.info().player
    }

    /// Whether a person is at the table: seated and connected, or away within their grace period. A table
    /// without one is not listed in the lobby (nobody would play there).
    fn has_someone(&self) -> bool {
        let now = Instant::now();
        let grace = self.ctx.config.grace;
        self.seats.iter().any(|s| {
            s.occupant.player_id.is_some()
                && !s.occupant.took_over
                && (s.away_since.is_none() || s.grace_ends(grace).is_some_and(|ends| now < ends))
        })
    }

    /// Runs the table until it closes, another node takes it or the server shuts down; says which.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<Box<Cmd>>) -> End {
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
                    // Boxed, as is the timer's work: inline, their futures would make every table's task as
                    // large as the largest command's, waiting or not.
                    Some(cmd) => Box::pin(self.handle(*cmd)).await,
                    None => break,
                },
                () = sleep_until(deadline.unwrap_or_else(far_future)), if deadline.is_some() => {
                    Box::pin(self.on_timer()).await
                }
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
                at,
            } => {
                self.ctx.metrics.observe_stage(Stage::Queue, at.elapsed());
                self.client_move(&outbox, ack, ply, &wire).await
            }
            Cmd::Resign { outbox } => self.resign(&outbox).await,
            Cmd::Draw { outbox, action } => self.draw(&outbox, action).await,
            Cmd::Abort { outbox } => self.abort(&outbox).await,
            Cmd::Rematch { outbox } => self.rematch(&outbox).await,
            Cmd::Takeback { outbox, action } => self.takeback(&outbox, action).await,
            Cmd::Chat { outbox, text } => self.chat(&outbox, text).await,
            Cmd::Renamed { player } => self.renamed(player),
            Cmd::CpuMoved { game_id, ply, wire } => self.cpu_moved(&game_id, ply, wire).await,
            Cmd::Evict => self.lost = true,
        }
        self.update_idle();
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

    fn publish_lobby(&self) {
        if self.is_private() {
            return;
        }
        if self.has_someone() {
            self.ctx.lobby.update(self.lobby_entry());
        } else {
            self.ctx.lobby.remove(&self.id);
        }
    }
}
