//! Pictures of positions: an SVG document of any chess, draughts or four-player position from its FEN, PDN
//! FEN or FEN4, drawn with the web board's own piece drawings, and the same picture as PNG, rendered in-process
//! by resvg (pure Rust, no system libraries, one embedded font).
//!
//! # Layout
//! - [`sprite`]: the piece drawings, read from `web/img/pieces.svg` (compiled in; the web board uses the same
//!   file).
//! - [`diagram`]: [`Diagram`]: a position as pieces on squares, made by each game's own parser.
//! - [`options`]: [`Options`] (orientation, last move, check, size, coordinates, theme) and [`Request`], read
//!   from a URL query or command-line pairs with every value checked.
//! - [`svg`]: the SVG document, laid out as `web/js/board/render.js` draws the board.
//! - [`glyph`]: coordinates and square numbers laid out once as outlines.
//! - [`render`]: [`Renderer`]: SVG to PNG with resvg and the embedded font.
//! - [`cache`]: [`Lru`], a least-recently-used cache for rendered PNGs, bounded by bytes.
//! - [`bench`](mod@bench): what `parlor bench image` runs.
//! - [`error`](mod@error): [`ImageError`].
//!
//! # Example
//! ```
//! use parlor_image::{Renderer, Request};
//!
//! let request = Request::from_query("chess", "fen=8/8/8/4k3/8/8/8/4K2R+w+K+-+0+1&orientation=black").unwrap();
//! assert!(request.svg().starts_with("<svg"));
//! let png = Renderer::new().png(&request).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! assert!(Request::from_query("chess", "fen=not+a+fen").is_err());
//! ```

pub mod bench;
pub mod cache;
pub mod diagram;
pub mod error;
pub mod glyph;
pub mod options;
pub mod render;
pub mod sprite;
pub mod svg;

pub use cache::Lru;
pub use diagram::{Army, Diagram, Placed};
pub use error::ImageError;
pub use options::{Check, DEFAULT_SIZE, MAX_QUERY_BYTES, MAX_SIZE, MIN_SIZE, Options, Request, Theme, url};
pub use render::Renderer;
