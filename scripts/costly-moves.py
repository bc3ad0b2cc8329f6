#!/usr/bin/env python3
"""Moves of one engine, in the games it lost, that Stockfish judges to cost 150 cp or more.

An experiment tool (python-chess and Stockfish), not used by the tests. For each lost game
of PLAYER in PGN, every move of PLAYER is judged by Stockfish at NODES nodes before and after
it; a line is printed when the move costs at least 150 cp and the position before it was not
already lost by more than 400 cp: game number, ply, FEN, move played, Stockfish's best move,
its score before and after (cp, PLAYER's side) and the move's PGN comment (PLAYER's own
score). The last line counts them.

    scripts/costly-moves.py PGN PLAYER [NODES] [STOCKFISH]
        (defaults: 300000 nodes, /usr/games/stockfish)

docs/strength.md row 125 ran it on results/gauntlet-1078153/option_UCI_Elo-2400/games.pgn
with PLAYER main.
"""
import sys

import chess
import chess.engine
import chess.pgn

COSTLY = 150
ALREADY_LOST = -400


def main() -> int:
    if not 3 <= len(sys.argv) <= 5:
        print("usage: scripts/costly-moves.py PGN PLAYER [NODES] [STOCKFISH]", file=sys.stderr)
        return 2
    pgn_path, player = sys.argv[1], sys.argv[2]
    try:
        nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 300_000
    except ValueError:
        print(f"NODES: '{sys.argv[3]}' is not a whole number", file=sys.stderr)
        return 2
    stockfish = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish"
    try:
        pgn = open(pgn_path, encoding="utf-8")
    except OSError as e:
        print(f"{pgn_path}: {e.strerror}", file=sys.stderr)
        return 1
    limit = chess.engine.Limit(nodes=nodes)
    costly = 0
    try:
        engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    except (OSError, chess.engine.EngineError) as e:
        print(f"STOCKFISH: cannot start '{stockfish}' as a UCI engine: {e}", file=sys.stderr)
        return 1
    with pgn, engine:
        engine.configure({"Threads": 1, "Hash": 64})
        number = 0
        while (game := chess.pgn.read_game(pgn)) is not None:
            number += 1
            player_white = game.headers.get("White", "").startswith(player)
            if not player_white and not game.headers.get("Black", "").startswith(player):
                continue
            lost = "0-1" if player_white else "1-0"
            if game.headers.get("Result") != lost:
                continue
            board = game.board()
            for ply, node in enumerate(game.mainline()):
                if (board.turn == chess.WHITE) == player_white:
                    before = engine.analyse(board, limit)
                    best = before["pv"][0]
                    before_cp = before["score"].pov(board.turn).score(mate_score=10_000)
                    after_board = board.copy()
                    after_board.push(node.move)
                    after = engine.analyse(after_board, limit)
                    after_cp = -after["score"].pov(after_board.turn).score(mate_score=10_000)
                    if before_cp - after_cp >= COSTLY and before_cp > ALREADY_LOST:
                        costly += 1
                        print(number, ply, board.fen(), board.san(node.move), "best",
                              board.san(best), before_cp, after_cp, node.comment, flush=True)
                board.push(node.move)
    print(f"{costly} costly moves of {player}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
