#!/usr/bin/env bash
# Runs one fuzz target under afl-fuzz for a while: fuzz/run.sh TARGET [SECONDS] (default 600).
# Build first with `cargo afl build --release` in fuzz/. Findings go to fuzz/out/TARGET (not committed):
# crashes in out/TARGET/default/crashes, the run's figures in out/TARGET/default/fuzzer_stats.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?usage: fuzz/run.sh TARGET [SECONDS]}
seconds=${2:-600}
# No CPU pinning and no CPU-governor check: the machine is shared. A core pattern that pipes to a handler
# only slows crash detection, it does not hide crashes from afl.
export AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
mkdir -p out
exec nice -n 15 cargo afl fuzz -V "$seconds" -i "corpus/$target" -o "out/$target" "target/release/$target"
