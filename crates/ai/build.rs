//! Fingerprints the engines: FNV-1a (64 bits) over every file of `src/` and `data/` (paths and contents, in path
//! order), given to the crate as `ENGINE_FINGERPRINT` (not `PARLOR_...`: those name the program's settings). A
//! stored review is kept under it, so a change of a parameter, the evaluation or the network's weights reviews a
//! game afresh instead of serving what the former engine said.

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for dir in ["src", "data"] {
        // A directory: Cargo reruns this script when any file under it changes.
        println!("cargo:rerun-if-changed={dir}");
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let mut hash = Fnv::new();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        hash.write(relative.to_string_lossy().as_bytes());
        hash.write(&std::fs::read(file).unwrap_or_default());
    }
    println!("cargo:rustc-env=ENGINE_FINGERPRINT={:016x}", hash.0);
}

/// Every file under `dir`.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// FNV-1a, 64 bits: stable across compilers and platforms, unlike `std`'s hasher.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3);
    }
}
