//! Fuzz target: the query of `/image/{game}.{svg,png}?...` as `parlor-image` reads it (`Request::from_query`),
//! and the SVG it writes. The first byte picks the game; the rest is the raw query string.

use parlor_fuzz::text;
use parlor_image::{Request, url};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((selector, query)) = text(data) else {
            return;
        };
        let game = ["chess", "draughts", "chess4"][usize::from(selector) % 3];
        let Ok(request) = Request::from_query(game, query) else {
            return;
        };
        assert_eq!(
            Request::from_query(game, query).as_ref(),
            Ok(&request),
            "not deterministic"
        );
        let svg = request.svg();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{svg}"
        );
        let kind = request.diagram.kind();
        // The start position's own link reads back to the start diagram.
        let link = url(kind, &start_text(kind), "png");
        let (_, linked) = link
            .split_once('?')
            .unwrap_or_else(|| panic!("no query in `{link}`"));
        let again = Request::from_query(game, linked).unwrap_or_else(|e| panic!("`{link}` refused: {e}"));
        assert_eq!(again.diagram, parlor_image::Diagram::start(kind), "`{link}`");
    });
}

fn start_text(kind: parlor_game::GameKind) -> String {
    use parlor_game::{GameKind, Rules};
    match kind {
        GameKind::Chess => parlor_chess::Game::new().position_text(),
        GameKind::Draughts(v) => {
            parlor_draughts::Game::new(v, parlor_draughts::Options::default()).position_text()
        }
        GameKind::Chess4 => parlor_chess4::Game::new(parlor_chess4::Options::default()).position_text(),
    }
}
