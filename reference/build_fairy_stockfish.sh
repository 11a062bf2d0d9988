#!/usr/bin/env bash
# Builds Fairy-Stockfish, the reference engine of the README's match table, into a
# folder outside the repository (nothing built or fetched here is ever committed).
#
#   reference/build_fairy_stockfish.sh OUT [SOURCE]
#
# OUT     the folder the two engines go to: OUT/fairy-stockfish (boards up to 8x8 and
#         the usual variants) and OUT/fairy-stockfish-large (largeboards=yes: 10x8
#         and larger boards, such as Capablanca and Grand chess).
# SOURCE  a checkout of https://github.com/fairy-stockfish/Fairy-Stockfish; without
#         it the script clones one into OUT/source.
#
# ARCH (default x86-64-avx2 when the processor has AVX2, else x86-64) and JOBS
# (default: the number of cores) may be set in the environment. Both builds use
# Fairy-Stockfish's classical evaluation (no network file is embedded or needed).
set -euo pipefail

usage() {
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

[[ $# -ge 1 && $# -le 2 ]] || usage 2
[[ $1 == -h || $1 == --help ]] && usage 0

out=$(realpath -m "$1")
repo=$(cd "$(dirname "$0")/.." && pwd -P)
case "$out/" in
"$repo"/*)
    echo "error: $out is inside the repository ($repo): build outside it" >&2
    exit 2
    ;;
esac
mkdir -p "$out"

if [[ $# -eq 2 ]]; then
    source_dir=$(cd "$2" && pwd)
else
    source_dir=$out/source
    if [[ ! -d $source_dir/.git ]]; then
        git clone --depth 1 https://github.com/fairy-stockfish/Fairy-Stockfish "$source_dir"
    fi
fi
[[ -f $source_dir/src/Makefile ]] || {
    echo "error: $source_dir has no src/Makefile: is it a Fairy-Stockfish checkout?" >&2
    exit 2
}

if [[ -z ${ARCH:-} ]]; then
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then ARCH=x86-64-avx2; else ARCH=x86-64; fi
fi
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# One build per board size, each from a clean tree; the binary is copied out.
build() { # NAME [MAKE ARGUMENTS...]
    local name=$1
    shift
    echo "== building $name (ARCH=$ARCH $*)" >&2
    make -C "$source_dir/src" clean >/dev/null
    make -C "$source_dir/src" -j"$JOBS" build ARCH="$ARCH" COMP=gcc "$@" >"$out/build-$name.log" 2>&1 || {
        echo "error: the build failed; see $out/build-$name.log" >&2
        exit 1
    }
    cp "$source_dir/src/stockfish" "$out/$name"
}

build fairy-stockfish
build fairy-stockfish-large largeboards=yes
make -C "$source_dir/src" clean >/dev/null

for engine in "$out/fairy-stockfish" "$out/fairy-stockfish-large"; do
    printf 'uci\nquit\n' | "$engine" | grep -m1 '^id name' | sed "s|^id name|$engine:|"
done
