#!/usr/bin/env bash
# Runs the tuning-knob benchmark (11 seeds x 50 tests per space and method) and regenerates
# docs/knobs_quality.svg; prints the table that docs/knobs.md shows. Deterministic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SADSL_BUILD_DIR:-$root/build}
cmake --build "$build" --target bench_knobs_quality >/dev/null
"$build/bench/bench_knobs_quality" --svg "$root/docs/knobs_quality.svg" "$@"
