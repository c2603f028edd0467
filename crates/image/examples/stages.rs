//! Times each stage of a PNG render (parse, draw, encode) for the chess start position at 512 px, with and without
//! coordinates, interleaved medians: `cargo run --release -p parlor-image --example stages`.

use parlor_game::bench::compare;
use parlor_image::{Renderer, Request};
use resvg::{tiny_skia, usvg};

fn main() {
    let per = 50u64;
    let renderer = Renderer::new();
    let opt = usvg::Options::default();
    let svg = |q: &str| {
        Request::from_query("chess", q)
            .map(|r| r.svg())
            .unwrap_or_default()
    };
    let (with, without) = (svg(""), svg("coords=off"));
    let request = Request::from_query("chess", "").unwrap_or_else(|e| panic!("{e}"));
    let tree = usvg::Tree::from_str(&with, &opt).ok();
    let Some(tree) = tree else { return };
    let mut pixmap = tiny_skia::Pixmap::new(512, 512).unwrap_or_else(|| panic!("pixmap"));
    let scale = 512.0 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let samples = compare(
        7,
        &mut [
            &mut || {
                (0..per)
                    .map(|_| u64::from(usvg::Tree::from_str(&with, &opt).is_ok()))
                    .sum()
            },
            &mut || {
                for _ in 0..per {
                    let mut p = tiny_skia::Pixmap::new(512, 512).unwrap_or_else(|| panic!("pixmap"));
                    resvg::render(
                        &tree,
                        tiny_skia::Transform::from_scale(scale, scale),
                        &mut p.as_mut(),
                    );
                }
                per
            },
            &mut || {
                (0..per)
                    .map(|_| u64::from(renderer.svg_to_png(&with, 512).is_ok()))
                    .sum()
            },
            &mut || {
                (0..per)
                    .map(|_| u64::from(renderer.svg_to_png(&without, 512).is_ok()))
                    .sum()
            },
            &mut || (0..per).map(|_| u64::from(renderer.png(&request).is_ok())).sum(),
            &mut || (0..per).map(|_| u64::from(renderer.draw(&request).is_ok())).sum(),
            &mut || (0..per).map(|_| u64::from(pixmap.encode_png().is_ok())).sum(),
        ],
    );
    for (name, s) in [
        "parse",
        "draw",
        "full SVG to PNG",
        "full SVG to PNG, no coords",
        "tiny-skia default encode",
        "png() with sprites",
        "draw() with sprites",
    ]
    .iter()
    .zip(samples)
    {
        println!("{name:<26} {:.3} ms", s.median.as_secs_f64() * 1e3 / per as f64);
    }
}
