#!/usr/bin/env python3
"""Where did our engine lose ground? Reads a `parlor match --show-moves` log and finds player A's costly moves.

Every position of the chosen games is searched by Stockfish to a fixed depth; a move of A after which the score
(from A's side) fell by at least --drop centipawns is listed with the phase (non-pawn material, 62 at the start)
and Stockfish's move. With --probe ENGINE, each listed middlegame position is also given to that UCI engine (our
`parlor uci`) for each of --times, which shows whether more time would have found a better move (search depth) or
not (evaluation).

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`). Example (docs/ai.md,
twentieth session):

    python3 tools/match_losses.py s1.log --games lost --depth 12 --probe "target/release/parlor uci"
"""
import argparse
import re
import shlex

import chess
import chess.engine

VALUE = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MATE = 3000


def read_games(path):
    games, current = [], None
    for line in open(path, encoding="utf-8"):
        header = re.match(r"game\s+(\d+) (.*?)\s+A (white|black): ([0-9.]+) \((.*?)\)", line)
        if header:
            current = dict(n=int(header[1]), opening=header[2].strip(), colour=header[3],
                           result=float(header[4]), how=header[5], moves=[])
            games.append(current)
            continue
        moves = re.match(r"\s+moves: (.*)", line)
        if moves and current is not None:
            current["moves"] = moves[1].split()
    return games


def phase(board):
    return sum(VALUE.get(p.piece_type, 0) for p in board.piece_map().values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--games", choices=["lost", "drawn", "won", "all"], default="lost")
    ap.add_argument("--depth", type=int, default=12, help="Stockfish's depth for each position")
    ap.add_argument("--drop", type=int, default=80, help="list A's moves that lost at least this many cp")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--probe", help="a UCI engine command to give the listed middlegame positions to")
    ap.add_argument("--times", default="0.1,1,4", help="seconds per probe search, comma-separated")
    args = ap.parse_args()
    wanted = {"lost": 0.0, "drawn": 0.5, "won": 1.0}.get(args.games)

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 2, "Hash": 256})
    drops = []
    for game in read_games(args.log):
        if wanted is not None and game["result"] != wanted:
            continue
        ours = chess.WHITE if game["colour"] == "white" else chess.BLACK
        board, scores, best = chess.Board(), [], []
        for uci in game["moves"]:
            info = sf.analyse(board, chess.engine.Limit(depth=args.depth))
            scores.append(info["score"].pov(ours).score(mate_score=MATE))
            best.append(info["pv"][0].uci() if info.get("pv") else "-")
            board.push_uci(uci)
        if board.is_checkmate():
            scores.append(-MATE if board.turn == ours else MATE)
        elif board.is_game_over():
            scores.append(0)
        else:
            scores.append(sf.analyse(board, chess.engine.Limit(depth=args.depth))["score"].pov(ours)
                          .score(mate_score=MATE))
        board = chess.Board()
        for i, uci in enumerate(game["moves"]):
            if board.turn == ours and scores[i] - scores[i + 1] >= args.drop and abs(scores[i]) < MATE // 2:
                drops.append((game["n"], i + 1, phase(board), scores[i], scores[i + 1], uci, best[i], board.fen()))
            board.push_uci(uci)
        curve = scores[10::10]
        print(f"game {game['n']} ({game['opening']}, A {game['colour']}) {game['result']} {game['how']}: "
              f"score every 10 plies {curve}", flush=True)

    print(f"\nA's moves that lost {args.drop} cp or more (Stockfish depth {args.depth}, A's side):")
    for n, ply, ph, before, after, played, sf_move, fen in drops:
        print(f"game {n} ply {ply} phase {ph:2d} {before:+5d} -> {after:+5d} played {played} "
              f"Stockfish {sf_move}  {fen}")

    if args.probe:
        probe = chess.engine.SimpleEngine.popen_uci(shlex.split(args.probe))
        times = [float(t) for t in args.times.split(",")]
        print(f"\nMiddlegame positions (phase >= 20, A's score -350..+200 before), searched again by the probe "
              f"for {args.times} s; Stockfish's five best at depth {args.depth + 2}:")
        for n, ply, ph, before, after, played, sf_move, fen in drops:
            if ph < 20 or not -350 < before < 200:
                continue
            board = chess.Board(fen)
            chosen = []
            for t in times:
                result = probe.play(board, chess.engine.Limit(time=t), info=chess.engine.INFO_BASIC)
                chosen.append(f"{result.move.uci()}/d{result.info.get('depth')}")
            top = sf.analyse(board, chess.engine.Limit(depth=args.depth + 2), multipv=5)
            ranked = {i["pv"][0].uci(): i["score"].relative.score(mate_score=MATE) for i in top}
            print(f"game {n} ply {ply}: played {played}, probe {chosen}, Stockfish {ranked}", flush=True)
        probe.quit()
    sf.quit()


if __name__ == "__main__":
    main()
