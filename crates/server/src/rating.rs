//! Ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the `skillratings` crate, one
//! rating per game and variant. A draw counts half a win. A four-player game counts, for each seat, as one rating
//! period of results against each other seat by final place (better place: a win; equal place: a draw), the usual
//! way to rate a free-for-all with a pairwise system.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// Start rating, deviation and volatility (Glickman's defaults).
pub const START: Glicko2Rating = Glicko2Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// The system constant tau. Glickman suggests 0.3 to 1.2; we take 0.5 because club, school and family sites play
/// few rated games per player, and a smaller tau keeps one surprising result from inflating volatility (lichess,
/// with far more games per player, uses 0.75).
pub const TAU: f64 = 0.5;

/// A rating whose deviation is above this is provisional (shown with a `?`), as lichess does.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The Glicko-2 configuration Parlor uses.
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    }
}

/// New ratings for every seat of a finished game from the ratings before it and the places (1 = first).
pub fn update(before: &[Glicko2Rating], places: &[u8]) -> Vec<Glicko2Rating> {
    let config = config();
    (0..before.len())
        .map(|me| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|other| *other != me)
                .map(|other| {
                    let outcome = match places[me].cmp(&places[other]) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (before[other], outcome)
                })
                .collect();
            glicko2_rating_period(&before[me], &results, &config)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's paper: a 1500/200/0.06 player beats 1400/30, loses to 1550/100 and to
    /// 1700/300 with tau 0.5, and ends at 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player, &results, &config());
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!((after.deviation - 151.52).abs() < 0.01, "{}", after.deviation);
        assert!(
            (after.volatility - 0.05999).abs() < 0.00001,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn a_draw_counts_half_and_places_rank_four_players() {
        let two = update(&[START, START], &[1, 1]);
        assert!((two[0].rating - 1500.0).abs() < 1e-6 && two[0].deviation < 350.0);
        let win = update(&[START, START], &[1, 2]);
        assert!(win[0].rating > 1500.0 && win[1].rating < 1500.0);
        let four = update(&[START; 4], &[1, 2, 3, 4]);
        assert!(
            four[0].rating > four[1].rating
                && four[1].rating > four[2].rating
                && four[2].rating > four[3].rating
        );
    }
}
