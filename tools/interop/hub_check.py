"""pydraughts drives `parlor hub` through its HubEngine: a game of searches, stop then a new search sent in one
write (two `done`), a refused position, and a won position read back as a win.

    python3 tools/interop/hub_check.py target/release/parlor
"""

import sys
import time

from draughts import Board
from draughts.engine import HubEngine


def main() -> int:
    failures = []
    engine = HubEngine([sys.argv[1], "hub"])
    engine.init()
    engine.configure({"level": "medium"})
    board = Board(variant="standard")
    for _ in range(12):
        if board.winner() is not None:
            break
        fen = board.fen
        best, _ = engine.go(to_hub(board), movetime=0.05)
        legal = {m.hub_move: m for m in board.legal_moves()}
        if best not in legal:
            failures.append(f"illegal move {best} in {fen}")
            break
        board.push(legal[best])
    # stop, then a new search, in one write: each gets its `done`.
    engine.send(f"pos pos={to_hub(board)}\nlevel infinite\ngo think\nstop\nlevel depth=2\ngo think")
    done = 0
    deadline = time.monotonic() + 10
    while done < 2 and time.monotonic() < deadline:
        command, _ = engine.recv_hub()
        done += command == "done"
    if done < 2:
        failures.append(f"stop then go in one write: {done} done")
    # A refused position leaves none: `go` answers an error, not a move of the old position.
    engine.send("pos pos=Wxyz\ngo think\nping")
    answers = []
    while True:
        command, arg = engine.recv_hub()
        answers.append(command)
        if command == "pong":
            break
    if "done" in answers or answers.count("error") != 2:
        failures.append(f"refused pos: {answers}")
    # A won position (white 28 takes the last black man on 23): a win, not a count of pieces.
    engine.go("W" + "e" * 22 + "b" + "e" * 4 + "w" + "e" * 22, depth=4)
    score = engine.info.get("score", {})
    if "win" not in score:
        failures.append(f"won position scored {score}")
    engine.quit()
    engine.kill_process()
    print(f"hub: {len(board.move_stack)} searched moves, stop+go, refused pos, win score {score}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


def to_hub(board: Board) -> str:
    """The board as a Hub position: side to move, then 50 squares."""
    return board._game.li_fen_to_hub_fen(board.fen)


if __name__ == "__main__":
    sys.exit(main())
