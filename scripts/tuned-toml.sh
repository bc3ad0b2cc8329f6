#!/bin/sh
# Writes engine/src/params/tuned.toml from a `harness tune --out` file: its lines whose values
# differ from the hand-written defaults (defaults.rs), under their group headers.
#
#   scripts/tuned-toml.sh TUNE_OUT.toml HAND_ENGINE [OUT]     (OUT: engine/src/params/tuned.toml)
#
# HAND_ENGINE is an `engine` binary built with a tuned.toml of comments only, so that its
# defaults are defaults.rs's; its `uci` listing (every parameter, ShowAllParams) gives them.
# OUT is replaced only when every line was read: on an error it is left as it was.
set -eu
usage="usage: scripts/tuned-toml.sh TUNE_OUT.toml HAND_ENGINE [OUT]"
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "$usage" >&2; exit 2; }
tune=$1
engine=$2
out=${3:-$(dirname "$0")/../engine/src/params/tuned.toml}
[ -r "$tune" ] || { echo "tuned-toml: cannot read $tune" >&2; exit 1; }
[ -x "$engine" ] || { echo "tuned-toml: $engine is not an executable" >&2; exit 1; }
defaults=$(mktemp)
written=$(mktemp)
trap 'rm -f "$defaults" "$written"' EXIT
printf 'setoption name ShowAllParams value true\nuci\nquit\n' | "$engine" \
    | awk '$1 == "option" && $2 == "name" { for (i = 3; i < NF; i++) if ($i == "default") { print $3, $(i + 1); break } }' \
    > "$defaults"
[ -s "$defaults" ] || { echo "tuned-toml: $engine listed no parameters" >&2; exit 1; }
{
    cat <<'HEADER'
# The evaluation weights of the last tune that won its SPRT against the defaults before it;
# the engine's defaults are defaults.rs overlaid by these lines. Generated, not hand-edited:
# the lines of `harness tune --out` whose values differ from the hand-written defaults.rs.
# Data, commands and SPRT: docs/tuning-loop.md.
HEADER
    awk -v tune="$tune" '
        NR == FNR { hand[$1] = $2; next }
        /^# / { group = $0; next }
        $2 == "=" {
            if (!($1 in hand)) {
                print "tuned-toml: " tune ":" FNR ": unknown parameter " $1 > "/dev/stderr"
                exit 1
            }
            if (hand[$1] != $3) {
                if (group != printed) { print ""; print group; printed = group }
                print $1, "=", $3
            }
        }
    ' "$defaults" "$tune"
} > "$written"
chmod 644 "$written"
mv "$written" "$out"
