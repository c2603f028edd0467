//! Writing a diagram as one self-contained SVG document, drawn as `web/js/board/render.js` draws the board:
//! 100 units per square, a 34-unit coordinate margin on the left and bottom (none for draughts, whose numbers
//! sit inside the squares), the same colours, the board turned so the chosen seat is at the bottom. The pieces
//! used are copied from `pieces.svg` into `<defs>` (four-player pieces once per army, with `currentColor`
//! replaced by the army's colour) and placed with `<use>`; labels are outlines ([`crate::glyph`]).

use crate::diagram::{Army, Diagram, is_playable};
use crate::glyph;
use crate::options::{Check, Options, Request, Theme};
use crate::sprite;
use parlor_game::{Coord, GameKind};
use std::fmt::Write as _;

/// One square, in SVG units.
pub const SQ: u32 = 100;
/// The coordinate margin, in SVG units.
pub const MARGIN: u32 = 34;
const FILES: &[u8; 14] = b"abcdefghijklmn";

/// The colours of a board, taken from `web/css/app.css`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Behind the board (the page colour).
    pub background: &'static str,
    /// Light squares.
    pub light: &'static str,
    /// Dark squares.
    pub dark: &'static str,
    /// Coordinates.
    pub coord: &'static str,
}

/// The palette of a game in a theme. Four-player squares are grey in both themes, as on the web board.
pub fn palette(kind: GameKind, theme: Theme) -> Palette {
    let (background, light, dark, coord) = match theme {
        Theme::Light => ("#f4f1ea", "#ecd9b9", "#ae8a68", "#6b655c"),
        Theme::Dark => ("#161512", "#c9b48f", "#8a6a4c", "#a39d92"),
    };
    let (light, dark) = match kind {
        GameKind::Chess4 => ("#e4e0d8", "#b9b3a7"),
        _ => (light, dark),
    };
    Palette {
        background,
        light,
        dark,
        coord,
    }
}

/// Where things go: the board size, its turn and margin, and the scale to pixels.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Layout {
    /// Squares per side.
    pub n: u32,
    /// Quarter turns.
    pub q: u8,
    /// Margin in SVG units (0 or [`MARGIN`]).
    pub margin: u32,
    /// Image side in pixels.
    pub size: u32,
}

impl Layout {
    /// The layout of a diagram drawn with some options.
    pub fn new(diagram: &Diagram, options: &Options) -> Layout {
        let margin = if options.coords && !matches!(diagram.kind(), GameKind::Draughts(_)) {
            MARGIN
        } else {
            0
        };
        Layout {
            n: u32::from(diagram.size()),
            q: options.quarter_turns % 4,
            margin,
            size: options.size,
        }
    }

    /// The side of the whole picture in SVG units.
    pub fn extent(&self) -> u32 {
        self.n * SQ + self.margin
    }

    /// Screen column and row (from the top) of a square: `toView` of `geometry.js`.
    pub fn view(&self, at: Coord) -> (u32, u32) {
        let m = self.n - 1;
        let (f, r) = (u32::from(at.file).min(m), u32::from(at.rank).min(m));
        let (x, y) = match self.q {
            1 => (m - r, f),
            2 => (m - f, m - r),
            3 => (r, m - f),
            _ => (f, r),
        };
        (x, m - y)
    }

    /// The square shown at a screen column and row: `fromView` of `geometry.js`.
    pub fn square_at(&self, x: u32, y: u32) -> Coord {
        let m = self.n - 1;
        let yb = m - y.min(m);
        let x = x.min(m);
        let (f, r) = match self.q {
            1 => (yb, m - x),
            2 => (m - x, m - yb),
            3 => (m - yb, x),
            _ => (x, yb),
        };
        Coord::new(f as u8, r as u8)
    }

    /// Top-left corner of a square in SVG units (x counted from the left edge of the board, not the margin).
    pub fn origin(&self, at: Coord) -> (u32, u32) {
        let (x, y) = self.view(at);
        (x * SQ, y * SQ)
    }

    /// The centre of a square in image pixels (for tests and image maps).
    pub fn centre_px(&self, at: Coord) -> (f32, f32) {
        let (x, y) = self.origin(at);
        let scale = self.size as f32 / self.extent() as f32;
        (
            (self.margin + x + SQ / 2) as f32 * scale,
            (y + SQ / 2) as f32 * scale,
        )
    }
}

/// The diagram as an SVG document of `options.size` pixels square.
pub fn write(diagram: &Diagram, options: &Options) -> String {
    document(diagram, options, true)
}

/// The same document without the pieces (the renderer draws them from pre-rendered sprites).
pub fn board(diagram: &Diagram, options: &Options) -> String {
    document(diagram, options, false)
}

/// One drawing of a sprite: a definition id (`wK`, `army-Q-red`, `mark-red`), and the top-left corner and
/// side of its 100x100 box in SVG units (x from the board's left edge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The definition's id: the symbol id, with `-army` for four-player pieces.
    pub id: String,
    /// The symbol in `pieces.svg`.
    pub symbol: &'static str,
    /// Four-player pieces: the army whose colour replaces `currentColor`.
    pub army: Option<Army>,
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Side.
    pub side: u32,
}

impl Stamp {
    /// The shapes to draw in the 100x100 box.
    pub fn body(&self) -> String {
        let body = sprite::body(self.symbol).unwrap_or_default();
        match self.army {
            Some(army) => body.replace("currentColor", army.colour()),
            None => body.to_owned(),
        }
    }
}

/// Every sprite drawing of a diagram, in drawing order, as `render.js` places them: chess and draughts pieces
/// 90 units in a 100-unit square; four-player pieces 92 units, with their seat's mark (28 units) bottom right.
pub fn stamps(diagram: &Diagram, layout: &Layout) -> Vec<Stamp> {
    let mut out = Vec::with_capacity(diagram.pieces().len() * 2);
    for p in diagram.pieces() {
        let (x, y) = layout.origin(p.at);
        match p.army {
            Some(army) => {
                out.push(Stamp {
                    id: format!("{}-{}", p.sprite, army.name()),
                    symbol: p.sprite,
                    army: Some(army),
                    x: x + 4,
                    y: y + 4,
                    side: SQ - 8,
                });
                if let Some(mark) = army.mark() {
                    out.push(Stamp {
                        id: mark.to_owned(),
                        symbol: mark,
                        army: None,
                        x: x + SQ - 34,
                        y: y + SQ - 34,
                        side: 28,
                    });
                }
            }
            None => out.push(Stamp {
                id: p.sprite.to_owned(),
                symbol: p.sprite,
                army: None,
                x: x + 5,
                y: y + 5,
                side: SQ - 10,
            }),
        }
    }
    out
}

fn document(diagram: &Diagram, options: &Options, pieces: bool) -> String {
    let kind = diagram.kind();
    let layout = Layout::new(diagram, options);
    let colours = palette(kind, options.theme);
    let n = layout.n;
    let extent = layout.extent();
    let left = -i64::from(layout.margin);
    let mut out = String::with_capacity(16 * 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         width=\"{size}\" height=\"{size}\" viewBox=\"{left} 0 {extent} {extent}\">",
        size = options.size
    );
    let stamps = if pieces {
        stamps(diagram, &layout)
    } else {
        Vec::new()
    };
    out.push_str("<defs>");
    let mut defined: Vec<&str> = Vec::new();
    for stamp in &stamps {
        if !defined.contains(&stamp.id.as_str()) {
            defined.push(&stamp.id);
            let _ = write!(out, "<g id=\"{}\">{}</g>", stamp.id, stamp.body());
        }
    }
    out.push_str("</defs>\n");
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"0\" width=\"{extent}\" height=\"{extent}\" fill=\"{}\"/>",
        colours.background
    );

    // Squares: the light board in one or two rectangles, then the dark squares on top (no seams between
    // neighbouring light squares).
    let _ = write!(out, "<g fill=\"{}\">", colours.light);
    match kind {
        GameKind::Chess4 => {
            let _ = write!(
                out,
                "<rect x=\"0\" y=\"{a}\" width=\"{w}\" height=\"{b}\"/><rect x=\"{a}\" y=\"0\" width=\"{b}\" height=\"{w}\"/>",
                a = 3 * SQ,
                b = (n - 6) * SQ,
                w = n * SQ
            );
        }
        _ => {
            let _ = write!(
                out,
                "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{0}\"/>",
                n * SQ
            );
        }
    }
    out.push_str("</g>\n");
    let _ = write!(out, "<g fill=\"{}\">", colours.dark);
    for r in 0..n {
        for f in 0..n {
            let at = Coord::new(f as u8, r as u8);
            if (f + r) % 2 == 0 && is_playable(kind, at) {
                let (x, y) = layout.origin(at);
                let _ = write!(out, "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\"/>");
            }
        }
    }
    out.push_str("</g>\n");

    if let Some(squares) = options.last_move {
        out.push_str("<g fill=\"#9bc700\" fill-opacity=\"0.42\">");
        for at in squares {
            let (x, y) = layout.origin(at);
            let _ = write!(out, "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\"/>");
        }
        out.push_str("</g>\n");
    }
    let checks: &[Coord] = match &options.check {
        Check::Auto => diagram.checks(),
        Check::Off => &[],
        Check::Squares(s) => s,
    };
    if !checks.is_empty() {
        out.push_str("<g fill=\"#dc1e1e\" fill-opacity=\"0.56\">");
        for &at in checks {
            let (x, y) = layout.origin(at);
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                x + SQ / 2,
                y + SQ / 2,
                SQ * 48 / 100
            );
        }
        out.push_str("</g>\n");
    }

    if options.coords {
        match kind {
            GameKind::Draughts(_) => {
                out.push_str("<g fill=\"#ffffff\" fill-opacity=\"0.75\">");
                let half = n / 2;
                for num in 1..=n * half {
                    let (x, y) = layout.origin(draughts_coord(n, num));
                    label(&mut out, &num.to_string(), false, x + 6, y + 24);
                }
                out.push_str("</g>\n");
            }
            _ => {
                let _ = write!(out, "<g fill=\"{}\">", colours.coord);
                for i in 0..n {
                    let text = edge_label(layout.q.is_multiple_of(2), layout.square_at(i, n - 1));
                    label(
                        &mut out,
                        &text,
                        true,
                        i64::from(i * SQ + SQ / 2),
                        i64::from(n * SQ + 26),
                    );
                }
                for i in 0..n {
                    let text = edge_label(!layout.q.is_multiple_of(2), layout.square_at(0, i));
                    label(
                        &mut out,
                        &text,
                        true,
                        -i64::from(MARGIN / 2),
                        i64::from(i * SQ + SQ / 2 + 8),
                    );
                }
                out.push_str("</g>\n");
            }
        }
    }

    for stamp in &stamps {
        let _ = writeln!(
            out,
            "<use xlink:href=\"#{}\" transform=\"translate({} {}) scale({})\"/>",
            stamp.id,
            stamp.x,
            stamp.y,
            f64::from(stamp.side) / f64::from(SQ)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A label's outline placed with its anchor at (x, y).
fn label(out: &mut String, text: &str, centred: bool, x: impl std::fmt::Display, y: impl std::fmt::Display) {
    if let Some(d) = glyph::outline(text, centred) {
        let _ = write!(out, "<path transform=\"translate({x} {y})\" d=\"{d}\"/>");
    }
}

/// A file letter or a rank number for an edge label.
fn edge_label(file: bool, at: Coord) -> String {
    if file {
        char::from(FILES[usize::from(at.file).min(13)]).to_string()
    } else {
        (u32::from(at.rank) + 1).to_string()
    }
}

/// The square of PDN number `num` on an `n`x`n` draughts board (`pdnSquare` of `geometry.js`).
fn draughts_coord(n: u32, num: u32) -> Coord {
    let half = n / 2;
    let row = (num - 1) / half;
    let k = (num - 1) % half;
    let file = 2 * k + u32::from(row.is_multiple_of(2));
    Coord::new(file as u8, (n - 1 - row) as u8)
}

impl Request {
    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        write(&self.diagram, &self.options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_game::DraughtsVariant;

    #[test]
    fn views_turn_like_the_web_board() {
        let d = Diagram::start(GameKind::Chess4);
        let mut o = Options::default();
        for q in 0..4 {
            o.quarter_turns = q;
            let l = Layout::new(&d, &o);
            for f in 0..14 {
                for r in 0..14 {
                    let at = Coord::new(f, r);
                    let (x, y) = l.view(at);
                    assert_eq!(l.square_at(x, y), at);
                }
            }
        }
        o.quarter_turns = 1; // Blue at the bottom: file a is the bottom row.
        assert_eq!(Layout::new(&d, &o).view(Coord::new(0, 7)).1, 13);
    }

    #[test]
    fn draughts_numbers_match_the_rules_crate() {
        for (v, n) in [
            (DraughtsVariant::English, 8),
            (DraughtsVariant::International, 10),
        ] {
            for num in 1..=n * n / 2 {
                assert_eq!(draughts_coord(n, num), parlor_draughts::square_coord(v, num));
            }
        }
    }
}
