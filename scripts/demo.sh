#!/usr/bin/env bash
# The main job: builds sadsl and runs the matrix-multiplication example end to end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
build=${SADSL_BUILD_DIR:-$root/build}
cd "$root"
"$build/examples/mm" "$@"
