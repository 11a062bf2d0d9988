#!/usr/bin/env bash
# The README's strength table (issue 28, "search"): `varsand match` of the computer
# player against Fairy-Stockfish (classical evaluation) on chess, xiangqi and shogi,
# at equal nodes (20,000 a move each) and at equal time (100 ms a move each), and of
# this varsand against an older build at equal time on the seed games (Monkey King,
# Monkey Queen, Jungles and Mountains) and chess. Games start from random 4-ply
# openings (seed 1), each opening played with both colours.
#
#   reference/strength_table.sh FSF_DIR [GAMES] [OUT]
#
# FSF_DIR  the folder reference/build_fairy_stockfish.sh built into (fairy-stockfish
#          for chess, fairy-stockfish-large for xiangqi and shogi); FSF and FSF_LARGE
#          may name the engines instead (then give `-` as FSF_DIR).
# GAMES    games per row (40).
# OUT      where the PGN files and JSON reports go (/tmp/varsand-strength-table).
#
# VARSAND names this varsand binary (default: target/release/varsand, built if
# missing); OLD the older one (the new-vs-old rows are skipped without it). PARTS
# chooses the rows: any of `nodes` (Fairy-Stockfish at equal nodes), `time`
# (Fairy-Stockfish at equal time), `old` (new against old); all three by default.
# ONLY, a pattern (grep -E), keeps the rows whose names match it (`chess-fsf`, `shogi`,
# `new-vs-old`...), to run rows apart or side by side.
# Prints the rows in Markdown as they finish. Time rows depend on the machine and
# its load; node rows do not.
set -euo pipefail

usage() {
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}
[[ $# -ge 1 && $# -le 3 ]] || usage 2
[[ $1 == -h || $1 == --help ]] && usage 0

repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ $1 != - ]]; then
    FSF=${FSF:-$1/fairy-stockfish}
    FSF_LARGE=${FSF_LARGE:-$1/fairy-stockfish-large}
fi
GAMES=${2:-40}
OUT=${3:-/tmp/varsand-strength-table}
PARTS=${PARTS:-nodes time old}
if [[ -z ${VARSAND:-} ]]; then
    VARSAND=$repo/target/release/varsand
    [[ -x $VARSAND ]] || (cd "$repo" && cargo build --release)
fi
mkdir -p "$OUT"

# Checks that an engine offers the variant: a build without it silently plays chess.
offers() { # ENGINE VARIANT
    printf 'uci\nquit\n' | "$1" | grep -q "option name UCI_Variant .* var $2\( \|$\)" || {
        echo "error: $1 does not offer UCI_Variant $2" >&2
        exit 2
    }
}

# One row: NAME FILE OPPONENT LIMITS [--variant NAME]
row() {
    local name=$1 file=$repo/variants/$2 opponent=$3 limits=$4
    shift 4
    [[ -z ${ONLY:-} ]] || grep -qE -- "$ONLY" <<<"$name" || return 0
    local json=$OUT/$name.json
    # shellcheck disable=SC2086 # the limits are several words on purpose
    nice "$VARSAND" match "$file" \
        --engine "'$VARSAND' uci '$file'" --engine "$opponent" \
        $limits --games "$GAMES" "$@" \
        --openings-plies 4 --max-plies 600 --seed 1 \
        --pgn "$OUT/$name.pgn" --json >"$json" 2>"$OUT/$name.log"
    python3 "$repo/reference/score_row.py" "$json" "$name" "${limits//--/}"
}

echo "| row | limits (each engine) | games | varsand wins / draws / losses | score | Elo difference [95%] |"
echo "| --- | --- | --- | --- | --- | --- |"
fsf_rows() { # SUFFIX LIMITS
    row "chess-fsf-$1" chess.var "$FSF" "$2" --variant chess
    row "xiangqi-fsf-$1" xiangqi.var "$FSF_LARGE" "$2" --variant xiangqi
    row "shogi-fsf-$1" shogi.var "$FSF_LARGE" "$2" --variant shogi
}
if [[ " $PARTS " == *" nodes "* || " $PARTS " == *" time "* ]]; then
    offers "$FSF" chess
    offers "$FSF_LARGE" xiangqi
    offers "$FSF_LARGE" shogi
fi
[[ " $PARTS " == *" nodes "* ]] && fsf_rows nodes20000 "--nodes 20000"
[[ " $PARTS " == *" time "* ]] && fsf_rows movetime100 "--movetime 100"
if [[ " $PARTS " == *" old "* ]]; then
    if [[ -z ${OLD:-} ]]; then
        echo "(no OLD binary given: the new-vs-old rows are skipped)" >&2
    else
        for game in monkey_king monkey_queen jungles_mountains chess; do
            file=$repo/variants/$game.var
            row "$game-new-vs-old" "$game.var" "'$OLD' uci '$file'" "--movetime 100"
        done
    fi
fi
