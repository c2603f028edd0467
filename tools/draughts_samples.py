#!/usr/bin/env python3
"""Prepares draughts training positions for the network trainer (crates/ai/examples/nn.rs).

usage: tools/draughts_samples.py out.txt in.txt [more.txt ...]

Reads `fen;score` lines of one variant (what crates/ai/examples/draughts_datagen.rs and draughts_selfplay.rs write;
a file ending in .xz is read compressed, as crates/ai/data/ keeps them), keeps each position once, and keeps two in
five of those with six pieces or fewer: the teacher's drawn games end in long king endings whose positions would
otherwise be a third of the file. The order of the lines (whole games together) is kept, so that the
trainer's held-out runs stay positions of games it did not train on.
"""

import lzma
import random
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    rng = random.Random(1)
    seen = set()
    kept = 0
    with open(sys.argv[1], "w") as out:
        for path in sys.argv[2:]:
            opener = lzma.open if path.endswith(".xz") else open
            with opener(path, "rt") as lines:
                for line in lines:
                    fen = line.split(";")[0]
                    if fen in seen:
                        continue
                    seen.add(fen)
                    # Squares are separated by commas, one fewer than the pieces in each of the two lists.
                    pieces = fen.count(",") + 2
                    if pieces <= 6 and rng.random() > 0.4:
                        continue
                    out.write(line)
                    kept += 1
    print(f"{kept} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
