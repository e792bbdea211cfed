#!/usr/bin/env bash
# Fuzzes every target in fuzz/ for $SADSL_FUZZ_SECONDS seconds each (default 10), $(nproc) at a
# time, from the checked-in corpus and dictionary, with the fuzz_<target> programs of a build
# (default build-asan/: the replay driver under ASan+UBSan; a SADSL_LIBFUZZER build works alike).
# $SADSL_FUZZ_SEED (default 1) seeds the mutations; $SADSL_FUZZ_TARGETS picks targets. A crash
# fails the script; its input is kept in <build>/fuzz-artifacts/. See docs/reliability.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${SADSL_BUILD_DIR:-$root/build-asan}}
seconds=${SADSL_FUZZ_SECONDS:-10}
seed=${SADSL_FUZZ_SEED:-1}
targets=${SADSL_FUZZ_TARGETS:-descriptor expression device command_line random_kernel}
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One target; its log in <artifacts>/<target>.log. libFuzzer writes new inputs to the first
# folder: a scratch one, never the checked-in corpus.
fuzz_one() {
  local target=$1 scratch=$build/fuzz-corpus/$1
  mkdir -p "$scratch"
  if "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -seed="$seed" -timeout=30 -dict="$root/fuzz/dict/$target.dict" \
       -artifact_prefix="$artifacts/$target-" "$scratch" "$root/fuzz/corpus/$target" >"$artifacts/$target.log" 2>&1; then
    echo "fuzz $target: $(grep -E 'executions/s|stat::number_of_executed_units|Done [0-9]+ runs' "$artifacts/$target.log" | tail -1)"
  else
    echo "fuzz $target: FAILED (log: $artifacts/$target.log)"
    tail -40 "$artifacts/$target.log"
    return 1
  fi
}
export -f fuzz_one
export root build seconds seed artifacts
printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -c 'fuzz_one {}'
