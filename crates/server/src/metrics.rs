//! Counters for `/metrics` (Prometheus text format).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the store latency histogram, in seconds.
const BUCKETS: [f64; 10] = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0];

/// The stages of a move on this node, each timed for `/metrics` (`parlor_move_stage_seconds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// From the connection handing the message on to the table task taking it up (the table's queue).
    Queue,
    /// The table's own work: the checks, playing the move, the new position, legal moves and event.
    Rules,
    /// Waiting for the store to make the move durable (the group commit).
    Commit,
    /// Encoding the acknowledgement and the event and queueing them for every watcher.
    Broadcast,
    /// Writing what is queued for one connection to its socket: one or more frames, of any message (counted per
    /// write).
    Write,
}

impl Stage {
    /// Every stage, in the order a move passes them.
    pub const ALL: [Stage; 5] = [
        Stage::Queue,
        Stage::Rules,
        Stage::Commit,
        Stage::Broadcast,
        Stage::Write,
    ];

    /// The label in `/metrics`.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Queue => "queue",
            Stage::Rules => "rules",
            Stage::Commit => "commit",
            Stage::Broadcast => "broadcast",
            Stage::Write => "write",
        }
    }
}

/// Total time and count of one stage.
#[derive(Debug, Default)]
struct StageTime {
    nanos: AtomicU64,
    count: AtomicU64,
}

/// Server-wide counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open websocket connections.
    pub connections: AtomicI64,
    /// Tables in memory.
    pub tables: AtomicI64,
    /// Games being played.
    pub live_games: AtomicI64,
    /// Games started since boot.
    pub games_started: AtomicU64,
    /// Games finished since boot.
    pub games_finished: AtomicU64,
    /// Moves played since boot.
    pub moves: AtomicU64,
    /// Moves refused since boot.
    pub moves_refused: AtomicU64,
    /// Store commits (submissions) since boot.
    pub commits: AtomicU64,
    /// Writes in those commits.
    pub commit_writes: AtomicU64,
    /// Failed commits.
    pub commit_errors: AtomicU64,
    store_buckets: [AtomicU64; BUCKETS.len()],
    store_sum_us: AtomicU64,
    stages: [StageTime; Stage::ALL.len()],
}

impl Metrics {
    /// Records one store commit of `writes` writes that took `took`.
    pub fn observe_commit(&self, writes: usize, took: Duration, ok: bool) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.commit_writes.fetch_add(writes as u64, Ordering::Relaxed);
        if !ok {
            self.commit_errors.fetch_add(1, Ordering::Relaxed);
        }
        self.store_sum_us
            .fetch_add(took.as_micros() as u64, Ordering::Relaxed);
        let secs = took.as_secs_f64();
        for (bound, bucket) in BUCKETS.iter().zip(&self.store_buckets) {
            if secs <= *bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Records the time one move (or, for [`Stage::Write`], one frame) spent in `stage`.
    pub fn observe_stage(&self, stage: Stage, took: Duration) {
        let time = &self.stages[stage as usize];
        time.nanos.fetch_add(
            took.as_nanos().min(u128::from(u64::MAX)) as u64,
            Ordering::Relaxed,
        );
        time.count.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let gauge = |out: &mut String, name: &str, help: &str, v: i64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
        };
        let counter = |out: &mut String, name: &str, help: &str, v: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
        };
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        gauge(
            &mut out,
            "parlor_connections",
            "Open websocket connections.",
            self.connections.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "parlor_tables",
            "Tables in memory.",
            self.tables.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "parlor_live_games",
            "Games being played.",
            self.live_games.load(Ordering::Relaxed),
        );
        counter(
            &mut out,
            "parlor_games_started_total",
            "Games started.",
            load(&self.games_started),
        );
        counter(
            &mut out,
            "parlor_games_finished_total",
            "Games finished.",
            load(&self.games_finished),
        );
        counter(&mut out, "parlor_moves_total", "Moves played.", load(&self.moves));
        counter(
            &mut out,
            "parlor_moves_refused_total",
            "Moves refused.",
            load(&self.moves_refused),
        );
        counter(
            &mut out,
            "parlor_store_commit_writes_total",
            "Writes committed.",
            load(&self.commit_writes),
        );
        counter(
            &mut out,
            "parlor_store_commit_errors_total",
            "Failed commits.",
            load(&self.commit_errors),
        );
        let _ = writeln!(
            out,
            "# HELP parlor_store_commit_seconds Time from handing writes to the store to their being durable."
        );
        let _ = writeln!(out, "# TYPE parlor_store_commit_seconds histogram");
        for (bound, bucket) in BUCKETS.iter().zip(&self.store_buckets) {
            let _ = writeln!(
                out,
                "parlor_store_commit_seconds_bucket{{le=\"{bound}\"}} {}",
                load(bucket)
            );
        }
        let count = load(&self.commits);
        let _ = writeln!(out, "parlor_store_commit_seconds_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "parlor_store_commit_seconds_sum {}",
            load(&self.store_sum_us) as f64 / 1e6
        );
        let _ = writeln!(out, "parlor_store_commit_seconds_count {count}");
        let _ = writeln!(
            out,
            "# HELP parlor_move_stage_seconds Time moves spent in each stage on this node: queue (message to table \
             task), rules, commit (waiting for the store), broadcast (encode and queue), write (per socket write)."
        );
        let _ = writeln!(out, "# TYPE parlor_move_stage_seconds summary");
        for stage in Stage::ALL {
            let time = &self.stages[stage as usize];
            let _ = writeln!(
                out,
                "parlor_move_stage_seconds_sum{{stage=\"{}\"}} {}\nparlor_move_stage_seconds_count{{stage=\"{}\"}} {}",
                stage.label(),
                load(&time.nanos) as f64 / 1e9,
                stage.label(),
                load(&time.count)
            );
        }
        if let Some((cpu, rss)) = process_usage() {
            let _ = writeln!(
                out,
                "# HELP process_cpu_seconds_total User and system CPU time spent."
            );
            let _ = writeln!(
                out,
                "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total {cpu}"
            );
            let _ = writeln!(out, "# HELP process_resident_memory_bytes Resident memory size.");
            let _ = writeln!(
                out,
                "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes {rss}"
            );
        }
        out
    }
}

/// The SQLite background checkpointer's counters, in the Prometheus text format.
pub fn render_checkpoints(counts: &parlor_store::CheckpointCounts) -> String {
    let mut out = String::new();
    for (name, help, v) in [
        (
            "parlor_sqlite_checkpoints_total",
            "Passive checkpoints run beside the writer.",
            counts.runs,
        ),
        (
            "parlor_sqlite_checkpoint_busy_total",
            "Checkpoints that found another one running.",
            counts.busy,
        ),
        (
            "parlor_sqlite_checkpoint_errors_total",
            "Checkpoints that failed.",
            counts.errors,
        ),
        (
            "parlor_sqlite_wal_frames_checkpointed_total",
            "WAL frames copied into the database.",
            counts.frames_copied,
        ),
        (
            "parlor_sqlite_wal_restarts_total",
            "Times the WAL started again from its beginning.",
            counts.wal_restarts,
        ),
    ] {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
    }
    out
}

/// CPU seconds and resident bytes of this process, from /proc (Linux only).
pub fn process_usage() -> Option<(f64, u64)> {
    // Clock ticks per second: 100 on every Linux this runs on (USER_HZ).
    const TICKS: f64 = 100.0;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start after the last ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(((utime + stime) / TICKS, rss_kb * 1024))
}
