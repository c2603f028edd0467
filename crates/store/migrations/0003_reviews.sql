-- The engine's review of a finished game, kept so a game is analysed once per engine version: JSON as the server
-- sends it.
CREATE TABLE game_reviews (
    game_id TEXT NOT NULL REFERENCES games (id),
    version TEXT NOT NULL,
    review TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, version)
);
