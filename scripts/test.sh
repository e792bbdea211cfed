#!/usr/bin/env bash
# Builds sadsl and runs every test (ctest), then the sanitizer stage: an ASan+UBSan build in
# build-asan/ of only the dsl, poly and command-line tests and the fuzz targets, which runs those
# tests and fuzzes each target for $SADSL_FUZZ_SECONDS seconds (default 10; scripts/fuzz.sh).
# SADSL_SANITIZER_STAGE=0 skips that stage; SADSL_SANITIZE=1 instead builds and tests everything
# under ASan+UBSan in build-asan/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
asan_flags=(-DSADSL_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSADSL_BUILD_BENCH=OFF)
if [ "${SADSL_SANITIZE:-0}" = 1 ]; then
  export SADSL_BUILD_DIR=${SADSL_BUILD_DIR:-$root/build-asan}
  bash "$root/scripts/build.sh" "${asan_flags[@]}"
else
  bash "$root/scripts/build.sh"
fi
build=${SADSL_BUILD_DIR:-$root/build}
(cd "$build" && ctest --output-on-failure --parallel "$(nproc)" --timeout 900)
if [ "${SADSL_SANITIZE:-0}" = 1 ] || [ "${SADSL_SANITIZER_STAGE:-1}" = 0 ]; then
  exit 0
fi

bash "$root/scripts/sanitizer_stage.sh"
