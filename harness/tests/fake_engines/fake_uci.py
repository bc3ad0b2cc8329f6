#!/usr/bin/env python3
"""A fake UCI engine for the harness's tests: plays legal moves, or misbehaves on purpose.

    fake_uci.py [--mode MODE] [--at N] [--delay SECONDS] [--move TEXT]

Modes (the fault happens at the N-th `go`, or the N-th `isready` for noready; N defaults to 1):
  normal     answer every go with a legal move (the first in sorted UCI order) and an info line
  crash      exit with status 3 instead of answering
  hang       never answer (and ignore stop)
  illegal    answer `bestmove TEXT` (default a1a1, illegal in every position)
  malformed  answer `bestmove xyz`
  flood      write megabytes to stderr at start and on every go, otherwise normal
  noready    never answer isready
  nouciok    never finish the uci handshake
  slow       answer only after --delay seconds (stop is read but not obeyed early)
Needs python-chess (`import chess`) only to pick legal moves.
"""

import argparse
import sys
import time


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flood_stderr(megabytes):
    chunk = ("stderr flood " * 80 + "\n") * 100
    for _ in range(int(megabytes * 1_000_000 / len(chunk)) + 1):
        sys.stderr.write(chunk)
    sys.stderr.flush()


def board_from(words):
    import chess

    board = chess.Board()
    i = 1
    if i < len(words) and words[i] == "fen":
        fen = " ".join(words[i + 1 : i + 7])
        board = chess.Board(fen)
        i += 7
    elif i < len(words) and words[i] == "startpos":
        i += 1
    if i < len(words) and words[i] == "moves":
        for m in words[i + 1 :]:
            board.push_uci(m)
    return board


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="normal")
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--move", default="a1a1")
    args = parser.parse_args()

    out("fake engine banner, to be ignored")
    if args.mode == "flood":
        flood_stderr(4)
    position = ["position", "startpos"]
    goes = 0
    readies = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            out("id name FakeUci " + args.mode)
            out("id author the harness tests")
            out("option name Hash type spin default 16 min 1 max 1024")
            out("option name Ponder type check default false")
            out("option name Style type combo default Normal var Solid var Normal var Risky")
            out("option name Clear Hash type button")
            out("option name Debug Log File type string default <empty>")
            if args.mode != "nouciok":
                out("uciok")
        elif command == "isready":
            readies += 1
            if args.mode == "noready" and readies >= args.at:
                continue
            out("readyok")
        elif command == "position":
            position = words
        elif command == "go":
            goes += 1
            faulty = goes >= args.at
            if args.mode == "crash" and faulty:
                sys.stderr.write("fake engine: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            if args.mode == "hang" and faulty:
                time.sleep(3600)
            if args.mode == "illegal" and faulty:
                out("bestmove " + args.move)
                continue
            if args.mode == "malformed" and faulty:
                out("bestmove xyz")
                continue
            if args.mode == "flood":
                flood_stderr(1)
            if args.mode == "slow" and faulty:
                time.sleep(args.delay)
            board = board_from(position)
            best = sorted(m.uci() for m in board.legal_moves)[0]
            out("info string thinking about " + str(len(list(board.legal_moves))) + " moves")
            out(f"info depth 1 seldepth 1 score cp {goes} nodes {100 * goes} nps 1000 time 1 pv {best}")
            out(f"info depth 2 seldepth 3 score cp -{goes} nodes {200 * goes} nps 2000 time 2 pv {best}")
            out(f"bestmove {best}")
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
