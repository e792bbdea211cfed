#!/usr/bin/env bash
# The main job: builds what the matrix-multiplication example needs (not the tests and
# benchmarks) and runs it end to end. Arguments go to the example (an output folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SADSL_TARGETS="example_mm" bash "$root/scripts/build.sh"
build=${SADSL_BUILD_DIR:-$root/build}
cd "$root"
"$build/examples/mm" "$@"
