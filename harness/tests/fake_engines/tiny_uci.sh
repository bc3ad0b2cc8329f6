#!/bin/sh
# The smallest fake UCI engine (no python, starts in a millisecond): answers the handshake and
# isready, always plays e2e4. For tests that start and stop engines thousands of times.
while read -r line; do
    case "$line" in
        uci) echo "id name TinyUci"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove e2e4" ;;
        quit) exit 0 ;;
    esac
done
