#!/usr/bin/env bash
# The README's table of learned against default evaluations (issue 28): for each
# shipped game, `varsand tune` learns values from self-play (300 games at depth 2,
# the defaults) into a file of its own (the shipped values file is left alone), then
# `varsand match` plays the evaluation with those values against the rules' own
# (`--values none`) at equal time. Where a game ships a values file, that file is the
# one matched (it is what play uses) and nothing is learned again.
#
#   reference/tuned_table.sh [GAMES] [MOVETIME] [OUT]
#
# GAMES     games per row (40), from 4-ply random openings (seed 1), each played
#           with both colours; a draw after 400 plies.
# MOVETIME  milliseconds a move for each engine (50).
# OUT       where the values files, PGN files and JSON reports go
#           (/tmp/varsand-tuned-table).
#
# VARSAND names the varsand binary (default: target/release/varsand, built if
# missing). ONLY, a pattern (grep -E), keeps the games whose names match it.
# Prints one Markdown row per game as it finishes. Time rows depend on the machine
# and its load (both engines alike).
set -euo pipefail

usage() {
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}
[[ $# -le 3 ]] || usage 2
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0

repo=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${1:-40}
MOVETIME=${2:-50}
OUT=${3:-/tmp/varsand-tuned-table}
if [[ -z ${VARSAND:-} ]]; then
    VARSAND=$repo/target/release/varsand
    [[ -x $VARSAND ]] || (cd "$repo" && cargo build --release)
fi
mkdir -p "$OUT"

echo "| game | values | games | learned wins / draws / losses | score | Elo difference [95%] |"
echo "| --- | --- | --- | --- | --- | --- |"
for file in "$repo"/variants/*.var; do
    game=$(basename "$file" .var)
    [[ -z ${ONLY:-} ]] || grep -qE -- "$ONLY" <<<"$game" || continue
    shipped=${file%.var}.values
    if [[ -f $shipped ]]; then
        values=$shipped
        origin=shipped
    else
        values=$OUT/$game.values
        origin=learned
        nice "$VARSAND" tune "$file" -o "$values" >"$OUT/$game.tune.log" 2>&1 || {
            echo "| $game | tune failed (see $OUT/$game.tune.log) | | | | |"
            continue
        }
    fi
    json=$OUT/$game.json
    nice "$VARSAND" match "$file" \
        --engine "'$VARSAND' uci '$file' --values '$values'" \
        --engine "'$VARSAND' uci '$file' --values none" \
        --movetime "$MOVETIME" --games "$GAMES" --openings-plies 4 --max-plies 400 \
        --seed 1 --pgn "$OUT/$game.pgn" --json >"$json" 2>"$OUT/$game.log" || {
        echo "| $game | $origin | match failed (see $OUT/$game.log) | | | |"
        continue
    }
    python3 "$repo/reference/score_row.py" "$json" "$game" "$origin"
done
