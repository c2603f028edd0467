"""Third-party readers check a running Parlor server: python-chess reads its PGN exports, pydraughts its PDN
exports (English, International and Russian), prometheus_client parses /metrics.

    python3 tools/interop/server_check.py target/release/parlor

Starts `parlor serve` on a free port with a fresh SQLite file, plays games of random legal moves over the
websocket (two players), exports each, and compares every position and move with the server's game API.
"""

import asyncio
import io
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import chess
import chess.pgn
import websockets
from prometheus_client.parser import text_string_to_metric_families

PLIES = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(base: str, path: str, cookie: str | None = None):
    """The body and the headers (read without regard to case) of a GET."""
    request = urllib.request.Request(base + path, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode(), response.headers


async def player(base: str, ws_url: str):
    _, headers = http(base, "/")
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    ws = await websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**22)
    await ws.send(json.dumps({"t": "hello", "protocol": 1}))
    await until(ws, lambda m: m["t"] == "welcome")
    return ws, cookie


async def until(ws, test):
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if test(message):
            return message


async def play(base: str, ws_url: str, game: str, seed: int) -> tuple[str, str]:
    """Plays one game of random legal moves (resigned after PLIES); returns its id and a player's cookie."""
    rng = random.Random(seed)
    (a, cookie), (b, _) = await player(base, ws_url), await player(base, ws_url)
    await a.send(json.dumps({"t": "create", "spec": {"game": game, "seats": [{"kind": "me"}]}}))
    table = (await until(a, lambda m: m["t"] == "created"))["table"]
    await b.send(json.dumps({"t": "sit", "table": table}))
    started = await until(a, lambda m: m["t"] == "event" and m["event"]["e"] == "started")
    state = started["event"]["game"]
    game_id, turn, legal, ply = state["id"], state["turn"], state["legal"], len(state["moves"])
    socks = [a, b]
    ack = 0
    while legal and ply < PLIES:
        ack += 1
        move = rng.choice(legal)["wire"]
        await socks[turn].send(json.dumps({"t": "move", "table": table, "ack": ack, "ply": ply, "wire": move}))
        moved = await until(a, lambda m: m["t"] == "event" and m["event"]["e"] in ("moved", "ended"))
        if moved["event"]["e"] == "ended":
            break
        event = moved["event"]
        turn, legal, ply = event["turn"], event.get("legal") or [], event["ply"]
    if legal and ply >= PLIES:
        await socks[turn].send(json.dumps({"t": "resign", "table": table}))
        await until(a, lambda m: m["t"] == "event" and m["event"]["e"] == "ended")
    await a.close()
    await b.close()
    return game_id, cookie


def check_pgn(base: str, game_id: str, cookie: str, failures: list) -> None:
    text, _ = http(base, f"/api/game/{game_id}/export", cookie)
    api = json.loads(http(base, f"/api/game/{game_id}", cookie)[0])
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None or game.errors:
        failures.append(f"{game_id}: python-chess could not read the PGN: {game and game.errors}\n{text}")
        return
    board = game.board()
    moves = list(game.mainline_moves())
    if len(moves) != len(api["moves"]):
        failures.append(f"{game_id}: {len(moves)} moves in the PGN, {len(api['moves'])} in the API")
    for move, ours in zip(moves, api["moves"]):
        san = board.san(move)
        board.push(move)
        if san != ours["display"] or board.fen() != ours["position"]:
            failures.append(f"{game_id}: {san} {board.fen()} against {ours['display']} {ours['position']}")
            break
    control = game.headers.get("TimeControl", "")
    try:
        game.time_control()
    except Exception as e:  # noqa: BLE001 - any refusal is the failure being checked
        failures.append(f"{game_id}: TimeControl {control!r}: {e}")
    for tag in ("Site", "Image"):
        if not game.headers.get(tag, "").startswith(base):
            failures.append(f"{game_id}: {tag} {game.headers.get(tag)!r} is not an absolute link")


def check_review(base: str, game_id: str, cookie: str, failures: list) -> None:
    """A reviewed game's export: python-chess reads every move's evaluation comment as the review's."""
    path = f"/api/game/{game_id}/review"
    urllib.request.urlopen(urllib.request.Request(base + path, method="POST", headers={"Cookie": cookie}), timeout=10)
    for _ in range(600):
        state = json.loads(http(base, path, cookie)[0])
        if state["state"] == "done":
            break
        time.sleep(0.1)
    else:
        failures.append(f"{game_id}: the review did not finish: {state}")
        return
    review = state["review"]
    text, _ = http(base, f"/api/game/{game_id}/export?review=1", cookie)
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None or game.errors:
        failures.append(f"{game_id}: python-chess could not read the reviewed PGN: {game and game.errors}\n{text}")
        return
    for ply, node in enumerate(game.mainline(), start=1):
        ours = review["positions"][ply]
        score = node.eval()
        if ours["best"] is None:
            continue
        if score is None:
            failures.append(f"{game_id}: no evaluation read after ply {ply}: {node.comment!r}")
            return
        white = score.white()
        if ours["mate"] is not None:
            ok = white.mate() == ours["mate"]
        else:
            ok = white.score() == ours["eval"][0]
        if not ok:
            failures.append(f"{game_id}: ply {ply}: python-chess read {white}, the review says {ours}")
            return


def check_pdn(base: str, game_id: str, cookie: str, variant: str, failures: list) -> None:
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    text, _ = http(base, f"/api/game/{game_id}/export", cookie)
    api = json.loads(http(base, f"/api/game/{game_id}", cookie)[0])
    try:
        read = PDNReader(pdn_text=text).games[0]
        board = Board(variant=variant)
        for pdn in read.moves:
            move = Move(board, pdn_move=pdn)
            if move.board_move not in [m.board_move for m in board.legal_moves()]:
                raise ValueError(f"{pdn} is not legal after {len(board.move_stack)} moves")
            board.push(move)
    except Exception as e:  # noqa: BLE001
        failures.append(f"{game_id} ({variant}): pydraughts could not replay the PDN: {e!r}\n{text}")
        return
    if len(read.moves) != len(api["moves"]):
        failures.append(f"{game_id} ({variant}): {len(read.moves)} moves read, {len(api['moves'])} played")


def check_metrics(base: str, failures: list) -> int:
    text, _ = http(base, "/metrics")
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # noqa: BLE001
        failures.append(f"/metrics does not parse: {e}")
        return 0
    return len(families)


def main() -> int:
    binary = sys.argv[1]
    failures: list = []
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{port}", "--database", f"sqlite://{tmp}/p.db", "--review-ms", "20"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    http(base, "/healthz")
                    break
                except OSError:
                    time.sleep(0.1)
            ws_url = f"ws://127.0.0.1:{port}/ws"
            games = 0
            for seed in range(4):
                game_id, cookie = asyncio.run(play(base, ws_url, "chess", seed))
                check_pgn(base, game_id, cookie, failures)
                games += 1
            check_review(base, game_id, cookie, failures)
            # pydraughts has no Pool checkers: Pool's PDN is checked by our own reader only.
            for variant, pydraughts_name in (
                ("english", "english"),
                ("international", "standard"),
                ("russian", "russian"),
            ):
                for seed in range(2):
                    game_id, cookie = asyncio.run(play(base, ws_url, f"draughts/{variant}", seed))
                    check_pdn(base, game_id, cookie, pydraughts_name, failures)
                    games += 1
            families = check_metrics(base, failures)
        finally:
            server.terminate()
            server.wait(10)
    print(f"server: {games} games exported and read back (python-chess, pydraughts), one with its review's "
          f"evaluations; /metrics: {families} families")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
