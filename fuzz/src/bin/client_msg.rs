//! Fuzz target: the websocket client message parser (`serde_json::from_str::<ClientMsg>`, as the server reads
//! every text frame) and the pure steps the server takes on a parsed message: the game kind of a table spec and
//! a move's wire played against the start of each game. A parsed message written back parses to itself.

use parlor_fuzz::text;
use parlor_game::{AnyGame, DraughtsVariant, GameKind};
use parlor_protocol::{ClientMsg, TableSpec};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((_, text)) = text(data) else {
            return;
        };
        let Ok(msg) = serde_json::from_str::<ClientMsg>(text) else {
            return;
        };
        let written =
            serde_json::to_string(&msg).unwrap_or_else(|e| panic!("{msg:?} does not serialize: {e}"));
        let read: ClientMsg =
            serde_json::from_str(&written).unwrap_or_else(|e| panic!("written `{written}` refused: {e}"));
        assert_eq!(read, msg, "`{written}`");
        match &msg {
            ClientMsg::Create { spec } | ClientMsg::Challenge { spec, .. } => game_of(spec),
            ClientMsg::Move { wire, .. } => {
                for kind in [
                    GameKind::Chess,
                    GameKind::Draughts(DraughtsVariant::English),
                    GameKind::Draughts(DraughtsVariant::International),
                    GameKind::Chess4,
                ] {
                    let mut game = start(kind);
                    let _ = game.play(wire);
                }
            }
            _ => {}
        }
    });
}

/// What the server does first with a spec: read its game kind and make the start position.
fn game_of(spec: &TableSpec) {
    if let Ok(kind) = spec.game.parse::<GameKind>() {
        assert_eq!(kind.to_string().parse::<GameKind>(), Ok(kind));
        let game = start(kind);
        assert_eq!(game.kind(), kind);
        let _ = spec.time.map(|t| (t.to_tag(), t.is_untimed()));
    }
}

fn start(kind: GameKind) -> AnyGame {
    match kind {
        GameKind::Chess => Box::new(parlor_chess::Game::new()),
        GameKind::Draughts(v) => Box::new(parlor_draughts::Game::new(v, parlor_draughts::Options::default())),
        GameKind::Chess4 => Box::new(parlor_chess4::Game::new(parlor_chess4::Options::default())),
    }
}
