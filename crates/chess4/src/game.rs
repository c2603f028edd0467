//! A whole four-player game as a table runs it.

/// Table options.
#[derive(Copy, Clone, Debug)]
pub struct Options;
/// A game.
#[derive(Clone, Debug)]
pub struct Game;
