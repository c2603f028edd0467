//! Why a picture could not be made: a bad position text or option (the client's fault: HTTP 400), or a
//! failure of the renderer itself (ours).

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// The chess FEN was refused by the chess rules.
    #[error("bad FEN: {0}")]
    Fen(#[from] parlor_chess::FenError),
    /// The PDN FEN was refused by the draughts rules.
    #[error("bad PDN FEN: {0}")]
    PdnFen(#[from] parlor_draughts::FenError),
    /// The FEN4 was refused by the four-player rules.
    #[error("bad FEN4: {0}")]
    Fen4(#[from] parlor_chess4::Fen4Error),
    /// A required parameter is absent.
    #[error("missing parameter `{0}`")]
    Missing(&'static str),
    /// A parameter this image does not know.
    #[error("unknown parameter `{0}`")]
    Unknown(String),
    /// A parameter given twice.
    #[error("parameter `{0}` given twice")]
    Repeated(String),
    /// A parameter with a value it cannot take.
    #[error("bad `{name}`: {reason}")]
    BadOption {
        /// The parameter.
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// The game name is not `chess`, `draughts` or `chess4`.
    #[error("unknown game `{0}` (expected chess, draughts or chess4)")]
    Game(String),
    /// The query string is longer than [`crate::MAX_QUERY_BYTES`].
    #[error("query of {0} bytes is too long (at most {max})", max = crate::MAX_QUERY_BYTES)]
    TooLong(usize),
    /// The renderer failed on a document we wrote: a bug, not the client's fault.
    #[error("render failed: {0}")]
    Render(String),
}

impl ImageError {
    /// True when the request was at fault (a bad position or option), false for our own failures.
    pub fn is_client_error(&self) -> bool {
        !matches!(self, ImageError::Render(_))
    }
}
