#!/usr/bin/env bash
# The computer player's fast yardstick (README, "A faster yardstick"): two varsand
# builds play each other at a fixed node count, in shards side by side, and the
# score is printed with its Elo difference and 95% interval. Node rows do not depend
# on the machine or its load.
#
#   reference/selfplay_ab.sh NEW OLD [NODES] [GAMES] [GAME] [SEED] [SHARDS]
#
# NEW, OLD  two varsand binaries (a copy of target/release/varsand before and after
#           a change; for a change behind an environment variable, a wrapper script).
# NODES     nodes a move for each (6000); GAMES in all (600), split over SHARDS (2)
#           matches run at once, shard i with the openings of seed SEED + i (SEED 100).
# GAME      a rule file's name in variants/ (chess).
# Openings: 4 random plies, each played with both colours; games past 400 plies are
# drawn. Not part of the test run.
set -euo pipefail
[[ $# -ge 2 && $# -le 7 ]] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
new=$1 old=$2 nodes=${3:-6000} games=${4:-600} game=${5:-chess} seed=${6:-100} shards=${7:-2}
repo=$(cd "$(dirname "$0")/.." && pwd)
file=$repo/variants/$game.var
[[ -f $file ]] || { echo "error: no rule file $file" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq 1 "$shards"); do
    nice "$new" match "$file" --engine "'$new' uci '$file'" --engine "'$old' uci '$file'" \
        --nodes "$nodes" --games $((games / shards)) --openings-plies 4 --max-plies 400 \
        --seed $((seed + i)) --json >"$out/$i.json" 2>/dev/null &
done
wait
python3 - "$out" "$game" "$nodes" <<'PY'
import glob, json, math, sys
w = d = l = 0
for f in glob.glob(sys.argv[1] + "/*.json"):
    s = json.load(open(f))["score"]
    w, d, l = w + s["wins"], d + s["draws"], l + s["losses"]
n = w + d + l
p = (w + d / 2) / n
se = math.sqrt((w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n / n)
elo = lambda x: -400 * math.log10(1 / min(max(x, 1e-6), 1 - 1e-6) - 1)
print(f"{sys.argv[2]}, {sys.argv[3]} nodes: +{w} ={d} -{l}, {w + d / 2}/{n} = {p:.3f}, "
      f"Elo {elo(p):+.0f} [{elo(p - 1.96 * se):+.0f}, {elo(p + 1.96 * se):+.0f}]")
PY
