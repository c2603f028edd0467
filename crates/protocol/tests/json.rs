//! The JSON shape of the protocol, as docs/protocol.md shows it: these exact strings are what browsers send and get.
#![allow(clippy::unwrap_used)]

use parlor_protocol::*;
use serde_json::{Value, json};

fn client(v: Value) -> ClientMsg {
    serde_json::from_value(v).unwrap()
}

#[test]
fn client_messages_parse_from_documented_json() {
    assert_eq!(
        client(json!({"t": "hello", "protocol": 1})),
        ClientMsg::Hello { protocol: 1 }
    );
    assert_eq!(
        client(json!({"t": "move", "table": "T1", "ack": 7, "ply": 12, "wire": "e7e8q"})),
        ClientMsg::Move {
            table: "T1".into(),
            ack: 7,
            ply: 12,
            wire: "e7e8q".into()
        }
    );
    assert_eq!(
        client(json!({"t": "open", "code": "K7QW2M"})),
        ClientMsg::Open {
            table: None,
            code: Some("K7QW2M".into()),
            since: None
        }
    );
    let create = client(
        json!({"t": "create", "spec": {"game": "draughts/english", "seats": [{"kind": "me"}, {"kind": "cpu", "level": "easy"}]}}),
    );
    let ClientMsg::Create { spec } = create else {
        panic!()
    };
    assert_eq!(spec.rules, HouseRules::default());
    assert_eq!(spec.seats[1], SeatSpec::Cpu { level: "easy".into() });
    assert_eq!(
        client(json!({"t": "draw", "table": "T1", "action": "offer"})),
        ClientMsg::Draw {
            table: "T1".into(),
            action: DrawAction::Offer
        }
    );
}

#[test]
fn unknown_or_malformed_messages_are_errors_not_panics() {
    for bad in [
        json!({"t": "fly"}),
        json!({"t": "move", "table": "x"}),
        json!([1, 2]),
        json!("hello"),
    ] {
        assert!(serde_json::from_value::<ClientMsg>(bad).is_err());
    }
    assert!(serde_json::from_str::<ClientMsg>("{not json").is_err());
}

#[test]
fn server_messages_have_the_documented_shape() {
    let err = serde_json::to_value(ServerMsg::error(ErrorCode::CookiesRequired, "cookies needed")).unwrap();
    assert_eq!(
        err,
        json!({"t": "error", "code": "cookies_required", "message": "cookies needed"})
    );
    let event = ServerMsg::Event {
        table: "T1".into(),
        v: 3,
        event: Box::new(Event::Spectators { count: 2 }),
    };
    assert_eq!(
        serde_json::to_value(&event).unwrap(),
        json!({"t": "event", "table": "T1", "v": 3, "event": {"e": "spectators", "count": 2}})
    );
    let back: ServerMsg = serde_json::from_value(serde_json::to_value(&event).unwrap()).unwrap();
    assert_eq!(back, event);
}

#[test]
fn legal_moves_omit_trivial_fields() {
    let view = parlor_game::MoveView {
        wire: "e2e4".into(),
        from: parlor_game::Coord::new(4, 1),
        to: parlor_game::Coord::new(4, 3),
        path: vec![parlor_game::Coord::new(4, 3)],
        captures: vec![],
        promotion: None,
    };
    assert_eq!(
        serde_json::to_value(LegalMove::from(&view)).unwrap(),
        json!({"wire": "e2e4", "from": [4, 1], "to": [4, 3]})
    );
}

#[test]
fn time_control_tags() {
    assert_eq!(TimeControl::STANDARD.to_tag(), "900+0");
    assert_eq!(TimeControl::STANDARD.cap_tag().as_deref(), Some("60"));
    assert_eq!(TimeControl::NONE.to_tag(), "-");
    assert_eq!(TimeControl::NONE.cap_tag(), None);
    let per_move = TimeControl {
        base_ms: None,
        increment_ms: 0,
        per_move_ms: Some(30_000),
    };
    assert_eq!(per_move.to_tag(), "1/30");
    assert_eq!(per_move.cap_tag(), None);
}
