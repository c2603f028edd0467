//! Coordinates and square numbers as outlines: each label is laid out once with the embedded font (through
//! resvg's own text engine) and kept as SVG path data, so a diagram carries `<path>`s instead of `<text>`.
//! Shaping sixteen labels on every render cost more than drawing them; and the SVG then looks the same in a
//! browser that lacks the font.

use resvg::tiny_skia::PathSegment;
use resvg::tiny_skia::Point;
use resvg::usvg;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The embedded font: DejaVu Sans cut down to printable ASCII (Bitstream Vera licence, `fonts/LICENSE`).
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-ascii.ttf");
/// The family name diagrams ask for; it must match the embedded font or resvg draws no text.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Size of edge coordinates (chess, four-player), centred on their point, in SVG units.
pub const EDGE_SIZE: u32 = 24;
/// Size of draughts square numbers, starting at their point.
pub const NUMBER_SIZE: u32 = 20;

/// Path data of `label` drawn at the origin (baseline at y = 0): edge labels (`a`..`n`, `1`..`14`) centred,
/// draughts numbers (`1`..`50`) left-aligned. `None` for any other label.
pub fn outline(label: &str, centred: bool) -> Option<&'static str> {
    static LABELS: OnceLock<HashMap<(String, bool), String>> = OnceLock::new();
    LABELS
        .get_or_init(|| {
            let mut options = usvg::Options::default();
            options.fontdb_mut().load_font_data(FONT.to_vec());
            let mut out = HashMap::new();
            let edge = (b'a'..=b'n')
                .map(|c| char::from(c).to_string())
                .chain((1..=14).map(|n| n.to_string()));
            for text in edge {
                let d = lay_out(&text, EDGE_SIZE, true, &options);
                out.insert((text, true), d);
            }
            for n in 1..=50 {
                let text = n.to_string();
                let d = lay_out(&text, NUMBER_SIZE, false, &options);
                out.insert((text, false), d);
            }
            out
        })
        .get(&(label.to_owned(), centred))
        .map(String::as_str)
}

fn lay_out(text: &str, size: u32, centred: bool, options: &usvg::Options) -> String {
    let anchor = if centred { "middle" } else { "start" };
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><text x=\"0\" y=\"0\" \
         font-family=\"{FONT_FAMILY}\" font-size=\"{size}\" text-anchor=\"{anchor}\">{text}</text></svg>"
    );
    let mut d = String::new();
    if let Ok(tree) = usvg::Tree::from_str(&svg, options) {
        collect(tree.root(), &mut d);
    }
    d
}

fn collect(group: &usvg::Group, d: &mut String) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => collect(g, d),
            usvg::Node::Text(t) => collect(t.flattened(), d),
            usvg::Node::Path(p) => {
                let ts = p.abs_transform();
                let mut point = |cmd: &str, pts: &mut [Point]| {
                    ts.map_points(pts);
                    d.push_str(cmd);
                    for pt in pts.iter() {
                        let _ = write!(d, "{} {} ", round(pt.x), round(pt.y));
                    }
                };
                for seg in p.data().segments() {
                    match seg {
                        PathSegment::MoveTo(a) => point("M", &mut [a]),
                        PathSegment::LineTo(a) => point("L", &mut [a]),
                        PathSegment::QuadTo(a, b) => point("Q", &mut [a, b]),
                        PathSegment::CubicTo(a, b, c) => point("C", &mut [a, b, c]),
                        PathSegment::Close => point("Z", &mut []),
                    }
                }
            }
            usvg::Node::Image(_) => {}
        }
    }
}

/// Two decimals, without trailing zeros (`3`, `-1.5`, `12.25`).
fn round(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_has_an_outline() {
        for c in b'a'..=b'n' {
            assert!(
                outline(&char::from(c).to_string(), true)
                    .is_some_and(|d| d.starts_with('M') && d.contains('Z'))
            );
        }
        for n in 1..=50 {
            let d = outline(&n.to_string(), false).unwrap_or_default();
            assert!(d.len() > 20, "{n}: {d}");
        }
        assert!(outline("15", true).is_none());
        // Centred: the outline straddles x = 0; left-aligned starts right of it.
        let xs = |d: &str| -> Vec<f32> {
            d.split(|c: char| c.is_ascii_alphabetic())
                .flat_map(|s| {
                    s.split_whitespace()
                        .step_by(2)
                        .filter_map(|x| x.parse().ok())
                        .collect::<Vec<f32>>()
                })
                .collect()
        };
        let a = xs(outline("a", true).unwrap_or_default());
        assert!(a.iter().any(|&x| x < 0.0) && a.iter().any(|&x| x > 0.0));
        assert!(
            xs(outline("7", false).unwrap_or_default())
                .iter()
                .all(|&x| x >= 0.0)
        );
    }
}
