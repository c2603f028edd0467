//! The piece drawings: `web/img/pieces.svg`, the one file the web board also uses, read into one entry per
//! `<symbol>` so a diagram can define exactly the pieces it shows.

use std::sync::OnceLock;

/// The sprite sheet, compiled in from the web client's folder (the single source of the drawings).
pub const PIECES_SVG: &str = include_str!("../../../web/img/pieces.svg");

/// One piece drawing: its id (`wK`, `army-Q`, `man-white`, `mark-red` ...) and the shapes inside its
/// `<symbol>`, drawn in a 100x100 box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The symbol's id in the sheet.
    pub id: String,
    /// The SVG shapes inside the symbol, unchanged.
    pub body: String,
}

/// Every symbol of the sheet, in file order (read once).
pub fn symbols() -> &'static [Symbol] {
    static SYMBOLS: OnceLock<Vec<Symbol>> = OnceLock::new();
    SYMBOLS.get_or_init(|| parse(PIECES_SVG))
}

/// The shapes of the symbol `id`, if the sheet has it.
pub fn body(id: &str) -> Option<&'static str> {
    symbols().iter().find(|s| s.id == id).map(|s| s.body.as_str())
}

/// Reads `<symbol id="..." ...>BODY</symbol>` entries. The sheet is written by `tools/pieces.mjs` in this one
/// plain form (no nesting, no CDATA), so a scan is enough; anything else is skipped.
pub fn parse(sheet: &str) -> Vec<Symbol> {
    let mut out = Vec::new();
    let mut rest = sheet;
    while let Some(start) = rest.find("<symbol") {
        rest = &rest[start..];
        let Some(open_end) = rest.find('>') else { break };
        let open = &rest[..open_end];
        let Some(close) = rest.find("</symbol>") else {
            break;
        };
        if close > open_end
            && let Some(id) = attribute(open, "id")
        {
            out.push(Symbol {
                id: id.to_owned(),
                body: rest[open_end + 1..close].to_owned(),
            });
        }
        rest = &rest[close + "</symbol>".len()..];
    }
    out
}

fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let len = tag[at..].find('"')?;
    Some(&tag[at..at + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheet_has_every_piece_the_renderer_names() {
        let ids: Vec<&str> = symbols().iter().map(|s| s.id.as_str()).collect();
        for id in [
            "wK",
            "wQ",
            "wR",
            "wB",
            "wN",
            "wP",
            "bK",
            "bQ",
            "bR",
            "bB",
            "bN",
            "bP",
            "army-K",
            "army-Q",
            "army-R",
            "army-B",
            "army-N",
            "army-P",
            "man-white",
            "man-black",
            "king-white",
            "king-black",
            "mark-red",
            "mark-blue",
            "mark-yellow",
            "mark-green",
        ] {
            assert!(ids.contains(&id), "{id} missing from pieces.svg");
        }
        assert!(body("army-K").is_some_and(|b| b.contains("currentColor")));
        assert!(body("wK").is_some_and(|b| b.starts_with('<') && !b.contains("symbol")));
    }

    #[test]
    fn a_broken_sheet_gives_what_it_can() {
        assert!(parse("<symbol id=\"a\">x").is_empty());
        assert_eq!(
            parse("<symbol id=\"a\" viewBox=\"0 0 1 1\"><g/></symbol>")[0].body,
            "<g/>"
        );
    }
}
