//! Renders each game's start and some middle positions to PNG and checks pixels that must hold (square colours,
//! pieces on known squares, grey four-player pieces, orientation, last move, check, theme, size), and compares
//! the SVG documents with golden files (`PARLOR_UPDATE_GOLDEN=1 cargo test -p parlor-image` rewrites them).

#![allow(clippy::unwrap_used)]

use parlor_game::Coord;
use parlor_image::svg::{Layout, MARGIN, SQ};
use parlor_image::{Renderer, Request};
use std::sync::OnceLock;

const START4: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";

/// Yellow eliminated: its army is grey (`d`).
fn grey_yellow() -> String {
    START4.replacen("0,0,0,0", "0,0,1,0", 1).replace('y', "d")
}

fn renderer() -> &'static Renderer {
    static R: OnceLock<Renderer> = OnceLock::new();
    R.get_or_init(Renderer::new)
}

/// A decoded picture: RGB rows.
struct Picture {
    size: u32,
    rgb: Vec<u8>,
    layout: Layout,
}

impl Picture {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.size + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The pixel at (dx, dy) in square units (0..100) inside a square.
    fn in_square(&self, at: Coord, dx: u32, dy: u32) -> [u8; 3] {
        let (x, y) = self.layout.origin(at);
        let scale = self.size as f64 / f64::from(self.layout.extent());
        let px = (f64::from(self.layout.margin + x + dx) * scale) as u32;
        let py = (f64::from(y + dy) * scale) as u32;
        self.pixel(px, py)
    }

    /// How many sampled points of a square (a 20x20 grid) are within 6 of a colour.
    fn count_in_square(&self, at: Coord, colour: [u8; 3]) -> usize {
        let mut n = 0;
        for i in 0..20 {
            for j in 0..20 {
                if close(self.in_square(at, 2 + i * 5, 2 + j * 5), colour, 6) {
                    n += 1;
                }
            }
        }
        n
    }
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= tolerance)
}

fn hex(text: &str) -> [u8; 3] {
    let v = u32::from_str_radix(text.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn render(game: &str, query: &str) -> Picture {
    let request = Request::from_query(game, query).unwrap();
    let png = renderer().png(&request).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgb).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(
        (info.width, info.height),
        (request.options.size, request.options.size)
    );
    Picture {
        size: info.width,
        rgb,
        layout: Layout::new(&request.diagram, &request.options),
    }
}

const LIGHT: &str = "#ecd9b9";
const DARK: &str = "#ae8a68";
const WHITE_PIECE: &str = "#fafafa";
const BLACK_PIECE: &str = "#2b2b2b";

#[test]
fn chess_start_squares_pieces_and_margin() {
    let p = render("chess", "");
    assert_eq!(p.size, 512);
    // Empty squares are their colour at the centre: e4 light, d4 dark.
    assert_eq!(p.in_square(Coord::new(4, 3), 50, 50), hex(LIGHT));
    assert_eq!(p.in_square(Coord::new(3, 3), 50, 50), hex(DARK));
    // The coordinate margin (left edge) is the page colour.
    assert_eq!(p.pixel(2, 10), hex("#f4f1ea"));
    // Pieces: white on rank 1, black on rank 8, nothing on rank 4.
    for f in 0..8 {
        assert!(
            p.count_in_square(Coord::new(f, 0), hex(WHITE_PIECE)) > 40,
            "white piece on file {f}"
        );
        assert!(
            p.count_in_square(Coord::new(f, 7), hex(BLACK_PIECE)) > 40,
            "black piece on file {f}"
        );
        assert_eq!(p.count_in_square(Coord::new(f, 3), hex(WHITE_PIECE)), 0);
        assert_eq!(p.count_in_square(Coord::new(f, 3), hex(BLACK_PIECE)), 0);
    }
    // Some coordinate text is drawn in the margin under file a.
    let scale = 512.0 / f64::from(8 * SQ + MARGIN);
    let label = (0..30u32)
        .flat_map(|dy| (0..30u32).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| {
            let x = ((f64::from(MARGIN + 35 + dx)) * scale) as u32;
            let y = ((f64::from(8 * SQ + 5 + dy)) * scale) as u32;
            close(p.pixel(x, y), hex("#6b655c"), 40)
        })
        .count();
    assert!(label > 5, "the label `a` is drawn ({label} dark pixels)");
}

#[test]
fn chess_orientation_puts_black_at_the_bottom() {
    let p = render("chess", "orientation=black&coords=off");
    // Without coordinates the board fills the picture; 64 px per square. The white king (e1) is now in the top
    // row, fourth column from the left; the black king (e8) in the bottom row.
    let square = |col: u32, row: u32, colour: &str| {
        let mut n = 0;
        for i in 0..16 {
            for j in 0..16 {
                if close(
                    p.pixel(col * 64 + 2 + i * 4, row * 64 + 2 + j * 4),
                    hex(colour),
                    6,
                ) {
                    n += 1;
                }
            }
        }
        n
    };
    assert!(square(3, 0, WHITE_PIECE) > 20);
    assert!(square(3, 7, BLACK_PIECE) > 20);
    assert_eq!(square(3, 7, WHITE_PIECE), 0);
    // h8 is light and sits bottom-left; a1 dark top-right.
    // h8 (dark) is bottom-left, a1 (dark) top-right, a8 (light) bottom-right.
    assert_eq!(p.pixel(1, 510), hex(DARK));
    assert_eq!(p.pixel(510, 1), hex(DARK));
    assert_eq!(p.pixel(510, 510), hex(LIGHT));
}

#[test]
fn chess_middle_position_last_move_and_check() {
    // Fool's mate: the queen on h4 checks the king on e1.
    let fen = "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR+w+KQkq+-+1+3";
    let p = render("chess", &format!("{fen}&lastmove=d8h4"));
    assert!(
        p.count_in_square(Coord::new(7, 3), hex(BLACK_PIECE)) > 40,
        "black queen on h4"
    );
    assert_eq!(
        p.count_in_square(Coord::new(5, 1), hex(WHITE_PIECE)),
        0,
        "f2 is empty"
    );
    assert!(
        p.count_in_square(Coord::new(5, 2), hex(WHITE_PIECE)) > 40,
        "white pawn on f3"
    );
    // d8 is empty and shaded: the dark square under #9bc700 at 0.42.
    let d8 = p.in_square(Coord::new(3, 7), 50, 50);
    assert!(close(d8, [166, 164, 60], 3), "last move shade {d8:?}");
    // Below the king on e1 (dark square), inside the check ring, the red shows.
    let ring = p.in_square(Coord::new(4, 0), 50, 95);
    assert!(ring[0] > 170 && ring[1] < 110, "check ring {ring:?}");
    let off = render("chess", &format!("{fen}&check=off"));
    assert_eq!(off.in_square(Coord::new(4, 0), 50, 95), hex(DARK));
    assert_eq!(off.in_square(Coord::new(3, 7), 50, 50), hex(DARK));
}

#[test]
fn dark_theme_and_size() {
    let p = render("chess", "theme=dark&size=200");
    assert_eq!(p.size, 200);
    assert_eq!(p.in_square(Coord::new(4, 3), 50, 50), hex("#c9b48f"));
    assert_eq!(p.in_square(Coord::new(3, 3), 50, 50), hex("#8a6a4c"));
    assert_eq!(p.pixel(1, 1), hex("#161512"));
}

#[test]
fn draughts_english_start_and_middle() {
    let p = render("draughts", "");
    // No margin: 64 px per square. Square 1 (b8) holds a black man, square 32 (g1) a white one.
    let one = parlor_draughts::square_coord(parlor_draughts::DraughtsVariant::English, 1);
    assert_eq!(one, Coord::new(1, 7));
    assert!(p.count_in_square(one, hex("#2a2a2a")) > 60);
    assert!(p.count_in_square(Coord::new(6, 0), hex("#f3eee2")) > 60);
    // a8 is a light square, d4 (c3..) an empty dark one.
    assert_eq!(p.pixel(2, 2), hex(LIGHT));
    assert_eq!(p.in_square(Coord::new(2, 4), 50, 60), hex(DARK));
    // A king from the sprite: gold crown pixels.
    let m = render("draughts", "fen=W:W18,22,K3:B5,6,9&lastmove=14-18");
    let k3 = parlor_draughts::square_coord(parlor_draughts::DraughtsVariant::English, 3);
    assert!(
        m.count_in_square(k3, hex("#e8b730")) > 10,
        "white king's crown on 3"
    );
    assert_eq!(
        m.count_in_square(Coord::new(1, 7), hex("#2a2a2a")),
        0,
        "square 1 is empty now"
    );
}

#[test]
fn draughts_international_is_ten_by_ten() {
    let p = render("draughts", "variant=international&size=500&orientation=black");
    // 50 px per square; turned, so square 50 (a1, white man) is at the top right and square 1 (black man)
    // at the bottom left.
    let count = |col: u32, row: u32, colour: &str| {
        (0..10)
            .flat_map(|i| (0..10).map(move |j| (i, j)))
            .filter(|&(i, j)| {
                close(
                    p.pixel(col * 50 + 3 + i * 5, row * 50 + 3 + j * 5),
                    hex(colour),
                    6,
                )
            })
            .count()
    };
    assert!(count(9, 0, "#f3eee2") > 15, "white man top right");
    assert!(count(0, 9, "#2a2a2a") > 15, "black man bottom left");
    // Top-left is j1 (light), the next square i1 dark.
    assert_eq!(p.pixel(3, 3), hex(LIGHT));
    assert_eq!(p.pixel(53, 3), hex(DARK));
}

#[test]
fn chess4_start_colours_marks_and_corners() {
    let p = render("chess4", "");
    assert_eq!(p.layout.n, 14);
    // The cut-off corners show the page colour.
    let corner = p.in_square(Coord::new(0, 0), 50, 50);
    assert_eq!(corner, hex("#f4f1ea"));
    // Red's king on h1, Blue's on a7, Yellow's on g14, Green's on n8, each in its army's colour.
    assert!(p.count_in_square(Coord::new(7, 0), hex("#d8473d")) > 20);
    assert!(p.count_in_square(Coord::new(0, 6), hex("#3f7fd9")) > 20);
    assert!(p.count_in_square(Coord::new(6, 13), hex("#e3b91f")) > 20);
    assert!(p.count_in_square(Coord::new(13, 7), hex("#3f9e4a")) > 20);
    // The seat mark (dark with a white ring) in the bottom-right of a red pawn's square.
    assert!(p.count_in_square(Coord::new(3, 1), hex("#111111")) > 3);
    // Empty centre squares in the four-player greys.
    assert_eq!(p.in_square(Coord::new(6, 6), 50, 50), hex("#b9b3a7"));
    assert_eq!(p.in_square(Coord::new(7, 6), 50, 50), hex("#e4e0d8"));
}

#[test]
fn chess4_grey_pieces_and_turned_board() {
    let fen4 = grey_yellow();
    let q = format!(
        "fen4={}&orientation=yellow&coords=off&size=560",
        fen4.replace('+', "%2B")
    );
    let p = render("chess4", &q);
    // 40 px per square. Turned for Yellow: Yellow's (grey) king g14 is in the bottom row, eighth column;
    // Red's king h1 in the top row, seventh column.
    let count = |col: u32, row: u32, colour: &str| {
        (0..20)
            .flat_map(|i| (0..20).map(move |j| (i, j)))
            .filter(|&(i, j)| close(p.pixel(col * 40 + i * 2, row * 40 + j * 2), hex(colour), 6))
            .count()
    };
    assert!(count(7, 13, "#9a9a9a") > 30, "grey king at the bottom");
    assert_eq!(count(7, 13, "#e3b91f"), 0, "no yellow left");
    assert!(count(6, 0, "#d8473d") > 30, "red king at the top");
    // Grey pieces carry no seat mark.
    assert_eq!(count(7, 13, "#111111"), 0);
}

#[test]
fn all_renders_are_opaque_pngs_of_the_asked_size() {
    for (game, q) in [
        ("chess", "size=64"),
        ("draughts", "size=2048&coords=off"),
        ("chess4", "size=333"),
    ] {
        let p = render(game, q);
        assert!(p.size == 64 || p.size == 2048 || p.size == 333);
    }
}

fn golden(name: &str, game: &str, query: &str) {
    let svg = Request::from_query(game, query).unwrap().svg();
    let path = format!("{}/tests/data/golden/{name}.svg", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("PARLOR_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &svg).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{path} missing: run with PARLOR_UPDATE_GOLDEN=1"));
    assert!(
        svg == want,
        "{name}: the SVG differs from {path} (PARLOR_UPDATE_GOLDEN=1 rewrites it after a deliberate change)"
    );
    // And resvg reads it.
    assert!(renderer().pixmap(&svg, 64).is_ok());
}

#[test]
fn golden_svgs() {
    golden("chess-start", "chess", "");
    golden(
        "chess-fools-mate-black",
        "chess",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR+w+KQkq+-+1+3&lastmove=d8h4&orientation=black&theme=dark",
    );
    golden("draughts-english-start", "draughts", "");
    golden(
        "draughts-international-middle",
        "draughts",
        "variant=international&fen=W:W27,28,32,33,34,37,38,K40:B12,13,17,18,19,22,23,24&lastmove=33-29&coords=off",
    );
    golden("chess4-start", "chess4", "");
    golden(
        "chess4-grey-blue",
        "chess4",
        &format!("fen4={}&orientation=blue&lastmove=h2-h4&check=g14", grey_yellow()),
    );
}

#[test]
fn sprites_draw_what_the_full_svg_draws() {
    // The PNG path copies pre-rendered pieces to whole pixels; the full SVG places them exactly. They may
    // differ by anti-aliasing at piece edges only.
    for (game, q) in [
        ("chess", "lastmove=e2e4"),
        ("draughts", "variant=international"),
        ("chess4", "orientation=green"),
    ] {
        let request = Request::from_query(game, q).unwrap();
        let fast = renderer().draw(&request).unwrap();
        let full = renderer().pixmap(&request.svg(), request.options.size).unwrap();
        let diff: u64 = fast
            .data()
            .iter()
            .zip(full.data())
            .map(|(a, b)| u64::from(a.abs_diff(*b)))
            .sum();
        let mean = diff as f64 / fast.data().len() as f64;
        assert!(mean < 3.0, "{game}: mean difference {mean}");
    }
}

/// A PNG is kept in the server's cache, which counts its length: it must hold no more memory than that. A
/// 2048 px board is about 250 KB; the encoder's first guess at its size was 1.5 MB.
#[test]
fn a_png_holds_no_spare_capacity() {
    for size in [64, 512, 2048] {
        let request = Request::from_query("chess", &format!("size={size}&lastmove=e2e4")).unwrap();
        let png = renderer().png(&request).unwrap();
        assert_eq!(png.capacity(), png.len(), "{size} px");
    }
}
