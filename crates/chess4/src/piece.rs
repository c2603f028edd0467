//! Pieces: a role and an owner (one of the four seats, or grey once its army is eliminated).

use parlor_game::Seat;

/// What a piece is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn (1 point).
    Pawn = 1,
    /// Knight (3 points).
    Knight = 2,
    /// Bishop (5 points).
    Bishop = 3,
    /// Rook (5 points).
    Rook = 4,
    /// Queen (9 points).
    Queen = 5,
    /// King (20 points when captured; capturing it eliminates its owner).
    King = 6,
    /// A queen made by promotion: moves as a queen, worth 1 point (FEN4 letter `D`).
    PromotedQueen = 7,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 7] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::PromotedQueen,
    ];

    /// Points for capturing a live piece of this role.
    pub const fn points(self) -> i32 {
        match self {
            Role::Pawn | Role::PromotedQueen => 1,
            Role::Knight => 3,
            Role::Bishop | Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 20,
        }
    }

    /// The FEN4 and notation letter (`P N B R Q K D`).
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::PromotedQueen => 'D',
        }
    }

    /// The role of a FEN4 letter.
    pub const fn from_letter(c: char) -> Option<Role> {
        match c {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            'D' => Some(Role::PromotedQueen),
            _ => None,
        }
    }

    pub(crate) const fn from_code(code: u8) -> Option<Role> {
        match code {
            1 => Some(Role::Pawn),
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            6 => Some(Role::King),
            7 => Some(Role::PromotedQueen),
            _ => None,
        }
    }
}

/// A piece on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// What it is.
    pub role: Role,
    /// Its army, or `None` for a grey piece of an eliminated army.
    pub owner: Option<Seat>,
}

/// The FEN4 colour letter of a seat: `r`, `b`, `y`, `g`.
pub const fn seat_letter(seat: Seat) -> char {
    match seat {
        Seat::First => 'r',
        Seat::Second => 'b',
        Seat::Third => 'y',
        Seat::Fourth => 'g',
    }
}

/// The seat of a FEN4 colour letter.
pub const fn seat_from_letter(c: char) -> Option<Seat> {
    match c {
        'r' | 'R' => Some(Seat::First),
        'b' | 'B' => Some(Seat::Second),
        'y' | 'Y' => Some(Seat::Third),
        'g' | 'G' => Some(Seat::Fourth),
        _ => None,
    }
}

/// The seat's colour name (Red, Blue, Yellow, Green), as PGN4 tags name the players.
pub const fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "Red",
        Seat::Second => "Blue",
        Seat::Third => "Yellow",
        Seat::Fourth => "Green",
    }
}

/// The seat's mark, drawn on each of its pieces beside the colour so the board reads without colour vision:
/// Red ●, Blue ▲, Yellow ■, Green ◆.
pub const fn seat_mark(seat: Seat) -> char {
    match seat {
        Seat::First => '●',
        Seat::Second => '▲',
        Seat::Third => '■',
        Seat::Fourth => '◆',
    }
}
