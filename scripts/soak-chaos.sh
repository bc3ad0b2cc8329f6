#!/usr/bin/env bash
# Soak: a long match against fake-uci misbehaving at random (crash, abort, hang, flood, illegal
# and malformed moves, slow answers, losses on time, stalls), with --recover. Samples the
# harness's memory (VmRSS) and child processes every second into DIR/memory.csv, then checks
# that every game is accounted for in games.csv and summary.json. The engines get a 1 MiB
# transposition table, so that its pages being touched over the first games does not look like
# growth.
#
#   scripts/soak-chaos.sh [GAMES] [DIR]        (defaults: 2000, results/soak-chaos)
#
# Needs release builds: cargo build --release -p harness -p engine
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000}
dir=${2:-results/soak-chaos}
harness=target/release/harness
fake=$PWD/target/release/fake-uci
[ -x "$harness" ] && [ -x "$fake" ] || { echo "soak: build first: cargo build --release -p harness" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"

chaos="seed=11,crash=0.002,abort=0.001,hang=0.0003,illegal=0.002,malformed=0.002,slow=0.001"
chaos+=",timeloss=0.0005,flood-lines=0.002,flood-stdout=0.0005,flood-stderr=0.001,garbage=0.01"
chaos+=",noready=0.0005,close-stdout=0.001"
"$harness" match --engine name=ours nodes=300 \
    --engine name=chaos cmd="$fake" args="--play greedy --delay 2 --chaos $chaos" tc=2+0.05 \
    --hash 1 --games "$games" --recover --concurrency 2 --seed 3 --no-game-lines --report-every 500 \
    --out "$dir" > "$dir.log" 2>&1 &
pid=$!

samples="$dir.memory.csv"
echo "seconds,rss_kib,children" > "$samples"
start=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  kids=$(pgrep -c -P "$pid" || true)
  [ -n "$rss" ] && echo "$((SECONDS - start)),$rss,$kids" >> "$samples"
  sleep 1
done
status=0
wait "$pid" || status=$?
mv "$samples" "$dir/memory.csv"
mv "$dir.log" "$dir/soak.log"
echo "soak: harness exited with $status after $((SECONDS - start)) s"

rows=$(($(wc -l < "$dir/games.csv") - 1))
counted=$(grep -o '"games": *[0-9]*' "$dir/summary.json" | head -1 | grep -o '[0-9]*$')
echo "soak: games.csv rows $rows, summary.json games $counted (asked for $games)"
grep -E '^(Terminations|Faults):' "$dir/soak.log" | tail -2
# Memory: the median of the first and the last quarter of the samples, the peak.
n=$(($(wc -l < "$dir/memory.csv") - 1))
q=$(( n / 4 > 0 ? n / 4 : 1 ))
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
first=$(tail -n +2 "$dir/memory.csv" | head -n "$q" | cut -d, -f2 | median)
last=$(tail -n "$q" "$dir/memory.csv" | cut -d, -f2 | median)
peak=$(tail -n +2 "$dir/memory.csv" | cut -d, -f2 | sort -n | tail -1)
kids=$(tail -n +2 "$dir/memory.csv" | cut -d, -f3 | sort -n | tail -1)
echo "soak: memory (VmRSS) median of the first quarter ${first} KiB, of the last quarter ${last} KiB, peak ${peak} KiB; at most ${kids} child processes; ${n} samples"
[ "$status" -eq 0 ] && [ "$rows" -eq "$games" ] && [ "$counted" -eq "$games" ]
