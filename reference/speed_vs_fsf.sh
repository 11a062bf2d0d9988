#!/bin/bash
# Perft speed of varsand against Fairy-Stockfish, side by side on one machine.
# Not part of the test run (it needs a Fairy-Stockfish binary and a release build):
#
#     reference/speed_vs_fsf.sh FSF_BINARY [VARSAND_BINARY] [ROUNDS]
#
# For each case (chess start depth 6, Kiwipete depth 5) it runs the two programs
# alternately ROUNDS times (default 5), one thread each, leaves counted in bulk at the
# last ply by both, and prints each round's times, their medians and spread, and the
# ratio of Fairy-Stockfish's time to varsand's (above 1: varsand is faster). Only the
# perft itself is timed: Fairy-Stockfish's from `go perft` to its node count, varsand's
# as `varsand perft` reports it (after the rules are loaded).
set -euo pipefail
FSF=${1:?usage: speed_vs_fsf.sh FSF_BINARY [VARSAND_BINARY] [ROUNDS]}
VARSAND=${2:-target/release/varsand}
ROUNDS=${3:-5}
HERE=$(cd "$(dirname "$0")/.." && pwd)

# Fairy-Stockfish's perft time in seconds, through UCI.
fsf_time() {
    python3 - "$FSF" "$1" "$2" <<'PY'
import subprocess, sys, time
exe, fen, depth = sys.argv[1:4]
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()
send("uci"); send("setoption name Threads value 1"); send("isready")
while p.stdout.readline().strip() != "readyok":
    pass
send("position " + ("startpos" if fen == "startpos" else "fen " + fen))
t = time.perf_counter(); send(f"go perft {depth}")
for line in p.stdout:
    if line.startswith("Nodes searched"):
        print(f"{time.perf_counter() - t:.3f}")
        break
send("quit"); p.wait()
PY
}

# varsand's perft time in seconds, as it reports it ("time 1.234 s, ...").
varsand_time() {
    local args=(perft "$HERE/variants/chess.var" "$2")
    [ "$1" != startpos ] && args+=(--fen "$1")
    "$VARSAND" "${args[@]}" 2>&1 >/dev/null | sed -n 's/^time \([0-9.]*\) s.*/\1/p'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
spread() { sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%.3f-%.3f", lo, hi}'; }

run_case() {
    local name=$1 fen=$2 depth=$3 f v fs=() vs=() rs=()
    echo "== $name, depth $depth"
    for ((i = 1; i <= ROUNDS; i++)); do
        f=$(fsf_time "$fen" "$depth")
        v=$(varsand_time "$fen" "$depth")
        fs+=("$f"); vs+=("$v"); rs+=("$(awk -v f="$f" -v v="$v" 'BEGIN{printf "%.3f", f/v}')")
        echo "round $i: fairy-stockfish $f s, varsand $v s, ratio ${rs[-1]}"
    done
    echo "fairy-stockfish median $(printf '%s\n' "${fs[@]}" | median) s [$(printf '%s\n' "${fs[@]}" | spread)]"
    echo "varsand         median $(printf '%s\n' "${vs[@]}" | median) s [$(printf '%s\n' "${vs[@]}" | spread)]"
    echo "ratio (fsf/varsand) median $(printf '%s\n' "${rs[@]}" | median) [$(printf '%s\n' "${rs[@]}" | spread)]"
}

run_case "chess start" startpos 6
run_case "chess Kiwipete" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 5
