#!/usr/bin/env bash
# Builds sadsl and runs every test (ctest). Set SADSL_SANITIZE=1 for an ASan+UBSan build in build-asan/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${SADSL_SANITIZE:-0}" = 1 ]; then
  export SADSL_BUILD_DIR=${SADSL_BUILD_DIR:-$root/build-asan}
  bash "$root/scripts/build.sh" -DSADSL_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSADSL_BUILD_BENCH=OFF
else
  bash "$root/scripts/build.sh"
fi
build=${SADSL_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
