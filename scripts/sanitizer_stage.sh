#!/usr/bin/env bash
# The sanitizer stage of scripts/test.sh: an ASan+UBSan build in build-asan/ of only what it runs
# (the dsl, poly and command-line tests, the `sadsl` program they run, the fuzz targets), then
# those tests and scripts/fuzz.sh ($SADSL_FUZZ_SECONDS per target, default 10).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
asan=$root/build-asan
fuzz_targets="fuzz_descriptor fuzz_expression fuzz_device fuzz_command_line fuzz_random_kernel"
SADSL_BUILD_DIR=$asan SADSL_TARGETS="sadsl_cli test_dsl test_poly test_cli $fuzz_targets" \
  bash "$root/scripts/build.sh" -DSADSL_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSADSL_BUILD_BENCH=OFF -DSADSL_BUILD_FUZZ=ON
(cd "$asan" && ctest --output-on-failure --parallel "$(nproc)" --timeout 900 --tests-regex '^(dsl|poly|fuzz):')
status=0
# The command-line tests read the peer tools' reference data; ctest reports a test without it as
# skipped, a direct run as failed: a checkout without ../shared skips them here.
if [ -d "$root/../shared/reference" ]; then
  # The tune tests mostly wait for their time budgets: both halves at once.
  (cd "$asan" && ./tests/test_cli '[tune]') & tune_tests=$!
  # The [large] inputs (300,000 terms, 600,000 loops) take minutes under ASan; the regular suite
  # runs them.
  (cd "$asan" && ./tests/test_cli '~[tune]~[large]') || status=1
  wait "$tune_tests" || status=1
else
  echo "sanitizer stage: the command-line tests skipped (they need $root/../shared/reference)"
fi
bash "$root/scripts/fuzz.sh" "$asan" || status=1
exit "$status"
