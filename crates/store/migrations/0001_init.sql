-- Parlor's schema, applied unchanged to SQLite and PostgreSQL through sqlx's Any driver.
-- Portable column types only: INTEGER, BIGINT, DOUBLE PRECISION, TEXT. Booleans are BIGINT 0/1, instants BIGINT unix
-- milliseconds, ids (uuids) and JSON are TEXT. No auto-increment (its DDL differs): ids come from `counters`.

-- Named values kept for the life of the site (the cookie signing key).
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Sequences that both backends can share: `UPDATE counters SET value = value + 1 ... RETURNING value`.
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO counters (name, value) VALUES ('chat', 0);

CREATE TABLE players (
    id TEXT PRIMARY KEY,
    nickname TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_seen_ms BIGINT NOT NULL
);

-- A table of the site (a room where games are played), not an SQL table.
CREATE TABLE game_tables (
    id TEXT PRIMARY KEY,
    code TEXT UNIQUE,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    owner TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
-- The lobby's query (`status <> 'closed'`, a literal so that both planners can use the partial index).
CREATE INDEX game_tables_open ON game_tables (created_ms) WHERE status <> 'closed';

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    setup TEXT NOT NULL,
    seats TEXT NOT NULL,
    rated BIGINT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    clocks TEXT,
    created_ms BIGINT NOT NULL,
    ended_ms BIGINT
);
-- What a restart resumes (`status = 'live'`).
CREATE INDEX games_live ON games (created_ms) WHERE status = 'live';
CREATE INDEX games_table ON games (table_id, created_ms);

-- Who sits in which game: written from `games.seats` so that a player's games are one index scan, newest first.
-- One row per player and game (`seat` is the player's first seat); `created_ms` is the game's.
CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX game_players_player ON game_players (player_id, created_ms, game_id);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    wire TEXT NOT NULL,
    clocks TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE chat (
    id BIGINT PRIMARY KEY,
    table_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX chat_table ON chat (table_id, id);

-- relation: 'block', 'mute' or 'favourite'.
CREATE TABLE relations (
    owner TEXT NOT NULL,
    other TEXT NOT NULL,
    relation TEXT NOT NULL,
    PRIMARY KEY (owner, other, relation)
);

CREATE TABLE ratings (
    player_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, pool)
);

CREATE TABLE rating_history (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id, pool)
);
CREATE INDEX rating_history_player ON rating_history (player_id, pool, at_ms);
