"""python-chess drives `parlor uci`: every `go` form answers by itself within its limit, and the protocol's
other commands (isready during a search, ucinewgame, searchmoves, quit during a search) work.

    python3 tools/interop/uci_check.py target/release/parlor [rounds]

Prints the worst overshoot of each form over its limit; exits 1 on any failure.
"""

import sys
import time

import chess
import chess.engine

SLACK = 0.050  # seconds an answer may come after its limit


def main() -> int:
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    failures = []
    worst = {}

    def note(form, elapsed, limit):
        worst[form] = (max(worst.get(form, (0, limit))[0], elapsed), limit)
        if elapsed - limit > SLACK:
            failures.append(f"{form}: answered after {elapsed * 1000:.0f} ms, limit {limit * 1000:.0f} ms")

    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=10)
    try:
        engine.configure({"Level": "hard"})
        board = chess.Board()
        mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        forms = [
            ("movetime 100", chess.engine.Limit(time=0.1), 0.1),
            # Limits of work, not time: they must answer by themselves (2 s is far beyond what they take).
            ("depth 4", chess.engine.Limit(depth=4), 2.0),
            ("nodes 20000", chess.engine.Limit(nodes=20000), 2.0),
            # A clock: the engine may spend at most a quarter of what is left.
            ("wtime/btime 2 s", chess.engine.Limit(white_clock=2, black_clock=2), 2 / 4),
            ("movetime 100 + depth 30", chess.engine.Limit(time=0.1, depth=30), 0.1),
            ("movetime 100 + nodes 10^9", chess.engine.Limit(time=0.1, nodes=10**9), 0.1),
        ]
        for i in range(rounds):
            for form, limit, bound in forms:
                start = time.monotonic()
                result = engine.play(board, limit)
                note(form, time.monotonic() - start, bound)
                if result.move not in board.legal_moves:
                    failures.append(f"{form}: illegal {result.move}")
            # A mate in one is found and played.
            start = time.monotonic()
            result = engine.play(mate, chess.engine.Limit(mate=1))
            note("mate 1", time.monotonic() - start, 2.0)
            if result.move != chess.Move.from_uci("d1d8"):
                failures.append(f"mate 1: played {result.move}")
            # searchmoves: only the move named (the last legal one in the current position).
            only = sorted(board.legal_moves, key=lambda m: m.uci())[-1]
            result = engine.play(board, chess.engine.Limit(depth=3), root_moves=[only])
            if result.move != only:
                failures.append(f"searchmoves {only}: played {result.move} in {board.fen()}")
            board.push(only)
            if board.is_game_over():
                board = chess.Board()
        # infinite + stop, with isready (ping) during the search.
        with engine.analysis(chess.Board(), chess.engine.Limit()) as analysis:
            time.sleep(0.2)
            engine.ping()
            start = time.monotonic()
            analysis.stop()
            analysis.wait()
            note("infinite + stop", time.monotonic() - start, 0.0)
        # ucinewgame between games.
        engine.play(chess.Board(), chess.engine.Limit(time=0.05), game=object())
        engine.play(chess.Board(), chess.engine.Limit(time=0.05), game=object())
        # quit during a search: the engine ends promptly.
        engine.analysis(chess.Board())
        time.sleep(0.1)
    finally:
        proc_start = time.monotonic()
        try:
            engine.quit()
        except chess.engine.EngineTerminatedError:
            pass
        note("quit", time.monotonic() - proc_start, 1.0)

    for form, (slowest, limit) in worst.items():
        print(f"uci {form:28s} slowest answer {slowest * 1000:6.0f} ms (limit {limit * 1000:.0f} ms + {SLACK * 1000:.0f})")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
