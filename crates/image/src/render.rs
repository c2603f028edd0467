//! SVG to PNG in-process with resvg and tiny-skia: no system library, no host fonts. The one font is a subset
//! of DejaVu Sans (printable ASCII) compiled in; see `fonts/README.md`.

use crate::error::ImageError;
use crate::glyph::{FONT, FONT_FAMILY};
use crate::options::Request;
use crate::svg::{self, Layout};
use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Bytes of pre-rendered sprites kept at most (one per piece, army and pixel size; a 512 px chess set is about
/// 160 KB); the set is dropped when it would grow past this.
const SPRITE_BYTES: usize = 16 << 20;

/// Renders diagrams to PNG. Holds the font and the pre-rendered sprites; make one and share it (it is
/// `Send + Sync`).
pub struct Renderer {
    options: usvg::Options<'static>,
    sprites: Mutex<Sprites>,
}

#[derive(Default)]
struct Sprites {
    bytes: usize,
    by_key: HashMap<(String, u32), Arc<tiny_skia::Pixmap>>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new()
    }
}

impl Renderer {
    /// A renderer with the embedded font and no other.
    pub fn new() -> Renderer {
        let mut options = usvg::Options {
            font_family: FONT_FAMILY.to_owned(),
            ..usvg::Options::default()
        };
        options.fontdb_mut().load_font_data(FONT.to_vec());
        Renderer {
            options,
            sprites: Mutex::new(Sprites::default()),
        }
    }

    /// The picture of a request as PNG bytes, without spare capacity (its length is the memory it holds).
    ///
    /// # Errors
    /// [`ImageError::Render`] if resvg refuses the document (a bug in [`crate::svg`]).
    pub fn png(&self, request: &Request) -> Result<Vec<u8>, ImageError> {
        encode_rgb(&self.draw(request)?)
    }

    /// The picture of a request as a pixmap. The board (squares, marks, labels) is rendered from
    /// [`svg::board`]; each piece is a sprite rendered once per size from the same `pieces.svg` shapes and
    /// copied to its place rounded to whole pixels (at most half a pixel from where the full SVG puts it).
    /// Drawing every piece's outlines anew took most of a render.
    ///
    /// # Errors
    /// [`ImageError::Render`] if resvg refuses a document (a bug in [`crate::svg`]).
    pub fn draw(&self, request: &Request) -> Result<tiny_skia::Pixmap, ImageError> {
        let size = request.options.size;
        let mut pixmap = self.pixmap(&svg::board(&request.diagram, &request.options), size)?;
        let layout = Layout::new(&request.diagram, &request.options);
        let scale = f64::from(size) / f64::from(layout.extent());
        for stamp in svg::stamps(&request.diagram, &layout) {
            let side = f64::from(stamp.side) * scale;
            let sprite = self.sprite(&stamp, side)?;
            let x = (f64::from(layout.margin + stamp.x) * scale).round() as i32;
            let y = (f64::from(stamp.y) * scale).round() as i32;
            pixmap.draw_pixmap(
                x,
                y,
                sprite.as_ref().as_ref(),
                &tiny_skia::PixmapPaint::default(),
                tiny_skia::Transform::identity(),
                None,
            );
        }
        Ok(pixmap)
    }

    /// A sprite drawn `side` pixels square, rendered on first use.
    fn sprite(&self, stamp: &svg::Stamp, side: f64) -> Result<Arc<tiny_skia::Pixmap>, ImageError> {
        let key = (stamp.id.clone(), (side * 100.0).round() as u32);
        if let Some(found) = self.sprites.lock().ok().and_then(|s| s.by_key.get(&key).cloned()) {
            return Ok(found);
        }
        let document = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">{}</svg>",
            stamp.body()
        );
        let tree =
            usvg::Tree::from_str(&document, &self.options).map_err(|e| ImageError::Render(e.to_string()))?;
        let pixels = side.ceil().max(1.0) as u32;
        let mut pixmap = tiny_skia::Pixmap::new(pixels, pixels)
            .ok_or_else(|| ImageError::Render(format!("sprite {pixels}")))?;
        let s = (side / 100.0) as f32;
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(s, s),
            &mut pixmap.as_mut(),
        );
        let pixmap = Arc::new(pixmap);
        if let Ok(mut sprites) = self.sprites.lock() {
            let bytes = pixmap.data().len();
            if sprites.bytes + bytes > SPRITE_BYTES {
                sprites.by_key.clear();
                sprites.bytes = 0;
            }
            if sprites.by_key.insert(key, pixmap.clone()).is_none() {
                sprites.bytes += bytes;
            }
        }
        Ok(pixmap)
    }

    /// Renders an SVG document to a `size` x `size` pixmap (premultiplied RGBA).
    ///
    /// # Errors
    /// [`ImageError::Render`] if the document cannot be parsed or the size is zero.
    pub fn pixmap(&self, svg: &str, size: u32) -> Result<tiny_skia::Pixmap, ImageError> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| ImageError::Render(e.to_string()))?;
        let mut pixmap =
            tiny_skia::Pixmap::new(size, size).ok_or_else(|| ImageError::Render(format!("size {size}")))?;
        let scale = size as f32 / tree.size().width().max(1.0);
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }

    /// Renders an SVG document to PNG bytes, `size` pixels square. The picture is opaque, so it is written as
    /// 8-bit RGB with png's fast compression (encoding with the defaults took longer than drawing).
    ///
    /// # Errors
    /// [`ImageError::Render`] if the document cannot be rendered or encoded.
    pub fn svg_to_png(&self, svg: &str, size: u32) -> Result<Vec<u8>, ImageError> {
        let pixmap = self.pixmap(svg, size)?;
        encode_rgb(&pixmap)
    }
}

/// PNG bytes of an opaque pixmap (alpha dropped), converted a row at a time: a whole RGB copy of a 2048 px
/// picture would be 12 MB more per render.
fn encode_rgb(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ImageError> {
    let width = pixmap.width() as usize;
    // A board compresses to a few percent of its RGB size (a 2048 px chess board to 250 KB of 12 MB).
    let mut out = Vec::with_capacity(width * pixmap.height() as usize * 3 / 32);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let err = |e: png::EncodingError| ImageError::Render(e.to_string());
    let mut writer = encoder.write_header().map_err(err)?;
    let mut stream = writer.stream_writer().map_err(err)?;
    let mut row = Vec::with_capacity(width * 3);
    for line in pixmap.data().chunks_exact(width * 4) {
        row.clear();
        row.extend(line.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]));
        std::io::Write::write_all(&mut stream, &row).map_err(|e| ImageError::Render(e.to_string()))?;
    }
    stream.finish().map_err(err)?;
    writer.finish().map_err(err)?;
    // The PNG is kept (in the server's cache) as long as it is used: it holds no spare capacity, so that its
    // length is the memory it takes.
    out.shrink_to_fit();
    Ok(out)
}
