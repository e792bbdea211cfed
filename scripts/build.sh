#!/usr/bin/env bash
# Configures and builds sadsl into build/ (or $SADSL_BUILD_DIR). Extra arguments go to cmake.
# $SADSL_TARGETS (space-separated) builds only those targets; default: everything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${SADSL_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${SADSL_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
