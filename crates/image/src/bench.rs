//! `parlor bench image`: PNG renders per second for each game, and the time of a cache hit.

use crate::cache::Lru;
use crate::options::Request;
use crate::render::Renderer;
use parlor_game::bench::{Sample, compare};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Positions rendered per game: each game's start and some middle positions (query strings).
pub const POSITIONS: &[(&str, &[&str])] = &[
    (
        "chess",
        &[
            "",
            "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR+w+KQkq+-+4+4&lastmove=g8f6",
            "fen=r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R+w+KQkq+-+0+1&orientation=black",
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR+w+KQkq+-+1+3&lastmove=d8h4",
        ],
    ),
    (
        "draughts",
        &[
            "",
            "variant=english&fen=W:W18,22,24,25,27,28,K3:B5,6,9,10,11,12&lastmove=14-18",
            "variant=international",
            "variant=international&fen=W:W27,28,32,33,34,37,38,K40:B12,13,17,18,19,22,23,24",
        ],
    ),
    (
        "chess4",
        &[
            "",
            "orientation=blue",
            "fen4=R-0,0,1,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,dR,dN,dB,dK,dQ,dB,dN,dR,3/3,dP,dP,dP,dP,dP,dP,dP,dP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3&lastmove=h2-h4",
        ],
    ),
];

/// Measures PNG renders per second at `size` pixels for each game (median of `runs` runs of `per_run`
/// renders each), then a hit in a full cache of 256 PNGs, and reports one line per figure.
///
/// # Errors
/// An [`crate::ImageError`] if a benchmark position does not parse or render.
pub fn bench(
    runs: usize,
    per_run: u64,
    size: u32,
    mut report: impl FnMut(String),
) -> Result<(), crate::ImageError> {
    let renderer = Renderer::new();
    let mut samples: Vec<(&str, Sample)> = Vec::new();
    for (game, queries) in POSITIONS {
        let requests = queries
            .iter()
            .map(|q| {
                let mut r = Request::from_query(game, q)?;
                r.options.size = size;
                Ok(r)
            })
            .collect::<Result<Vec<_>, crate::ImageError>>()?;
        for r in &requests {
            renderer.png(r)?;
        }
        let mut bytes = 0usize;
        let mut work = || {
            for i in 0..per_run {
                let r = &requests[i as usize % requests.len()];
                bytes += renderer.png(r).map_or(0, |png| png.len());
            }
            per_run
        };
        let sample = compare(runs, &mut [&mut work])[0];
        report(format!(
            "{game:<9} {size} px  {:>7.1} PNG/s  {:>6.2} ms/render  (median of {runs} runs of {per_run}; avg PNG {} bytes)",
            sample.per_second(),
            sample.median.as_secs_f64() * 1e3 / per_run as f64,
            bytes / (per_run as usize * runs.max(1)).max(1)
        ));
        samples.push((game, sample));
    }

    // A hit: what the server does for a cached image (lock, look up, clone the Arc), in a full cache.
    let cache: Mutex<Lru<String, Arc<[u8]>>> = Mutex::new(Lru::new(64 << 20));
    let png: Arc<[u8]> = renderer.png(&Request::from_query("chess", "")?)?.into();
    let keys: Vec<String> = (0..256).map(|i| format!("chess.png?fen=x{i}")).collect();
    if let Ok(mut c) = cache.lock() {
        for k in &keys {
            c.put(k.clone(), png.clone(), png.len());
        }
    }
    let lookups: u64 = 1_000_000;
    let mut times = Vec::new();
    let mut found = 0u64;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        for i in 0..lookups {
            let key = &keys[i as usize % keys.len()];
            if let Ok(mut c) = cache.lock()
                && c.get(key).is_some()
            {
                found += 1;
            }
        }
        times.push(start.elapsed());
    }
    let median = parlor_game::bench::median(times);
    report(format!(
        "cache hit {:>10.3} µs  (median of {runs} runs of {lookups} lookups in a full cache of 256; {found} hits)",
        median.as_secs_f64() * 1e6 / lookups as f64
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Every benchmark position parses (so `parlor bench image` cannot fail on its own data).
    #[test]
    fn the_positions_parse() {
        for (game, queries) in super::POSITIONS {
            for q in *queries {
                assert!(crate::Request::from_query(game, q).is_ok(), "{game} {q}");
            }
        }
    }
}
