#!/usr/bin/env bash
# The README's table of varsand against Fairy-Stockfish: `varsand match` at a few
# settings on chess and Capablanca chess, each engine limited by depth or nodes (not
# time), so that the games do not depend on the machine's speed or load.
#
#   reference/match_table.sh FSF_DIR [GAMES] [OUT]
#
# FSF_DIR  the folder reference/build_fairy_stockfish.sh built into (fairy-stockfish
#          and fairy-stockfish-large); the variables FSF and FSF_LARGE may name the
#          two engines instead (then give `-` as FSF_DIR).
# GAMES    games per setting (40).
# OUT      where the PGN files and JSON reports go (/tmp/varsand-match-table).
#
# VARSAND names the varsand binary (default: target/release/varsand, built if
# missing). Prints the table's rows in Markdown.
set -euo pipefail

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
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
OUT=${3:-/tmp/varsand-match-table}
for engine in "$FSF" "$FSF_LARGE"; do
    [[ -x $engine ]] || {
        echo "error: no engine at $engine (reference/build_fairy_stockfish.sh builds it)" >&2
        exit 2
    }
done
if [[ -z ${VARSAND:-} ]]; then
    VARSAND=$repo/target/release/varsand
    [[ -x $VARSAND ]] || (cd "$repo" && cargo build --release)
fi
mkdir -p "$OUT"

# One setting: NAME FILE FAIRY-STOCKFISH VARSAND-LIMITS FSF-LIMITS
setting() {
    local name=$1 file=$repo/variants/$2 fsf=$3 ours=$4 theirs=$5
    local json=$OUT/$name.json
    nice "$VARSAND" match "$file" \
        --engine "'$VARSAND' uci '$file'" --engine "'$fsf'" \
        --go "$ours" --go "$theirs" --games "$GAMES" \
        --openings-plies 4 --max-plies 600 --seed 1 \
        --pgn "$OUT/$name.pgn" --json >"$json" 2>"$OUT/$name.log"
    python3 "$repo/reference/score_row.py" "$json" "{game}" "$ours" "$theirs"
}

echo "| game | varsand | Fairy-Stockfish | games | varsand wins / draws / losses | score | Elo difference [95%] |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for theirs in "depth 5" "nodes 1000" "nodes 3000" "nodes 10000"; do
    setting "chess-${theirs// /}" chess.var "$FSF" "depth 4" "$theirs"
done
for theirs in "depth 5" "nodes 1000" "nodes 3000" "nodes 10000"; do
    setting "capablanca-${theirs// /}" capablanca.var "$FSF_LARGE" "depth 4" "$theirs"
done
