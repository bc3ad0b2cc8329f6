#!/usr/bin/env bash
# N harness workers on this machine with one command.
#
#   deploy/local/workers.sh N [worker options]
#
# Starts N `harness worker` processes with the given options (for example --test ID,
# --concurrency C, --batch PAIRS, --exit-when-idle), names them local-HOST-PID-1 ... -N
# (PID: this script's), waits for them all, and forwards SIGINT, SIGTERM and SIGHUP to them:
# the first asks each worker to finish and commit the games under way and exit, a second
# makes them exit at once, as with a single harness. Each worker runs in its own process
# group, so a Ctrl-C at the terminal reaches the workers once, through this script.
# The store: HARNESS_STORE in the environment (--store URL among the options works too, but
# on a shared machine every user sees command lines, and the password in them).
# The binary: $HARNESS_BIN if set, else `harness` on PATH.
# Exit status: 0 when every worker exited 0; 1 when any failed (each named on stderr);
# 2 for bad arguments; after a signal, 128 + its number (130 for SIGINT, 143 for SIGTERM)
# unless a worker failed, a worker that exits 130 or 143 (interrupted) having stopped as
# asked. SIGINT works when the script runs in a terminal's foreground: a shell starts
# background commands of its scripts with SIGINT ignored, and an ignored signal cannot be
# caught; stop those with SIGTERM.
set -uo pipefail

me=${0##*/}
usage="usage: $me N [harness worker options]   (N: 1 to 1024 workers)"

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  echo "$usage" >&2
  [[ $# -ge 1 ]] && exit 0
  exit 2
fi
count=$1
shift
if ! [[ $count =~ ^[0-9]+$ ]] || ((10#$count < 1 || 10#$count > 1024)); then
  echo "$me: N must be a whole number from 1 to 1024, got '$count'" >&2
  echo "$usage" >&2
  exit 2
fi
count=$((10#$count))
for arg in "$@"; do
  if [[ $arg == --name || $arg == --name=* ]]; then
    echo "$me: --name is set by this script (local-HOST-PID-I, one per worker); leave it out" >&2
    exit 2
  fi
done

bin=${HARNESS_BIN:-harness}
if ! command -v "$bin" >/dev/null; then
  echo "$me: cannot run '$bin': not found (put harness on PATH or set HARNESS_BIN)" >&2
  exit 2
fi

host=$(hostname -s 2>/dev/null || hostname)
prefix="local-$host-$$"

# Traps first, so that a signal arriving while the workers start is passed on too.
pids=()
signalled=0
stop_signal=
forward() {
  signalled=1
  [[ -n $stop_signal ]] || stop_signal=$1
  echo "$me: SIG$1: passing it on to the workers" >&2
  for pid in "${pids[@]}"; do
    kill -s "$1" "$pid" 2>/dev/null || true
  done
}
trap 'forward INT' INT
trap 'forward TERM' TERM
trap 'forward HUP' HUP

# Said before the workers start, so that no worker's output is mixed into the line.
echo "$me: starting $count workers ($prefix-1 ... $prefix-$count)" >&2
# Monitor mode: each background worker gets its own process group.
set -m
names=()
for ((i = 1; i <= count; i++)); do
  "$bin" worker --name "$prefix-$i" "$@" </dev/null &
  pids+=("$!")
  names+=("$prefix-$i")
done


failed=0
for i in "${!pids[@]}"; do
  # A trapped signal makes `wait` return early; wait again until the worker's own status
  # (bash keeps the status of a finished child, so a second wait returns it).
  while :; do
    signalled=0
    wait "${pids[$i]}"
    rc=$?
    ((signalled)) || break
  done
  if ((rc == 0)); then
    continue
  elif [[ -n $stop_signal ]] && ((rc == 130 || rc == 143)); then
    echo "$me: worker ${names[$i]} (pid ${pids[$i]}) stopped (status $rc)" >&2
  else
    echo "$me: worker ${names[$i]} (pid ${pids[$i]}) exited with status $rc" >&2
    failed=$((failed + 1))
  fi
done
if ((failed > 0)); then
  echo "$me: $failed of $count workers failed" >&2
  exit 1
fi
if [[ -n $stop_signal ]]; then
  echo "$me: all $count workers stopped after SIG$stop_signal" >&2
  exit $((128 + $(kill -l "$stop_signal")))
fi
echo "$me: all $count workers finished" >&2
