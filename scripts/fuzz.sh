#!/usr/bin/env bash
# fuzz: the fuzz targets of tests/fuzz/ under libFuzzer (clang-19, coverage-guided) with ASan + UBSan, each for a
# bounded time on a temporary copy of its corpus (tests/fuzz/corpus/<name>, which stays as it is).
#
#   scripts/fuzz.sh [name...]       (default: every tests/fuzz/fuzz_<name>.cpp; names without the fuzz_ prefix)
#
# FUZZ_SECONDS   time per target (default 60)
# FUZZ_JOBS      ninja jobs for the build (default 1)
# Builds in build-fuzz (host platform, PORTSHMEM_FUZZ_ENGINE=libfuzzer, PORTSHMEM_SANITIZE=address,undefined).
# Exit 1 when a target crashed, leaked, hit a sanitizer report or timed out on an input; the input that did it is kept
# under build-fuzz/fuzz-artifacts/<name>/ and its path printed, with the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build="build-fuzz"
seconds=${FUZZ_SECONDS:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: FUZZ_SECONDS must be a positive whole number, got '$seconds'" >&2
  exit 2
fi
case "${1:-}" in -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do
    n=${f##*/fuzz_}
    names+=("${n%.cpp}")
  done
fi
for n in "${names[@]}"; do
  [ -f "tests/fuzz/fuzz_$n.cpp" ] || { echo "fuzz: no target tests/fuzz/fuzz_$n.cpp" >&2; exit 2; }
done

# libFuzzer and the sanitizer runtimes of clang 19 are a package of their own on Debian 12 / Ubuntu
# (libclang-rt-19-dev); clang-19 alone links nothing with -fsanitize=fuzzer. Install, then check with a one-line target.
scripts/install-deps.sh --fuzz
command -v clang++-19 >/dev/null || { echo "fuzz: clang++-19 not found (apt-get install clang-19)" >&2; exit 1; }
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
  'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }' >"$probe/probe.cpp"
if ! clang++-19 -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/log"; then
  cat "$probe/log" >&2
  echo "fuzz: clang-19 cannot link a libFuzzer target with ASan and UBSan: its runtime libraries are missing" \
    "(libclang_rt.fuzzer, libclang_rt.asan); on Debian 12 / Ubuntu: apt-get install libclang-rt-19-dev" >&2
  exit 1
fi

t0=$SECONDS
cmake -S . -B "$build" -G Ninja -DPORTSHMEM_PLATFORM=host -DPORTSHMEM_FUZZ_ENGINE=libfuzzer \
  -DPORTSHMEM_SANITIZE=address,undefined -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
  -DPORTSHMEM_BUILD_TESTS=ON -DPORTSHMEM_BUILD_EXAMPLES=OFF -DPORTSHMEM_BUILD_BENCHMARKS=OFF \
  -DPORTSHMEM_GTEST_SOURCE="${PORTSHMEM_GTEST_SOURCE:-}" >/dev/null
targets=()
for n in "${names[@]}"; do targets+=("fuzz_$n"); done
cmake --build "$build" --target "${targets[@]}" -- -j"${FUZZ_JOBS:-1}"
echo "fuzz: built ${targets[*]} in $((SECONDS - t0)) s; $seconds s each"

# A finding stops the target (UBSan is built not to recover); leaks count as findings.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for n in "${names[@]}"; do
  bin=$root/$build/tests/fuzz/fuzz_$n
  artifacts=$root/$build/fuzz-artifacts/$n
  rm -rf "$artifacts"
  mkdir -p "$artifacts" "$probe/corpus"
  rm -rf "${probe:?}/corpus/$n"
  cp -r "tests/fuzz/corpus/$n" "$probe/corpus/$n"
  flags=(-max_total_time="$seconds" -max_len=1024 -timeout=30 -print_final_stats=1 -artifact_prefix="$artifacts/")
  case "$n" in env | config_agreement) flags+=(-dict="$root/tests/fuzz/env.dict") ;; esac
  echo "== fuzz_$n: $seconds s on a copy of tests/fuzz/corpus/$n ($(find "$probe/corpus/$n" -type f | wc -l) inputs)"
  status=0
  "$bin" "${flags[@]}" "$probe/corpus/$n" >"$probe/$n.log" 2>&1 || status=$?
  grep -E '^(stat::|#[0-9]+ +DONE|Done [0-9]+ runs)' "$probe/$n.log" || true
  if [ "$status" != 0 ]; then
    tail -n 60 "$probe/$n.log" >&2
    failed+=("fuzz_$n")
    reproducer=$(find "$artifacts" -type f | head -n 1)
    if [ -n "$reproducer" ]; then
      echo "fuzz: fuzz_$n failed (exit $status); reproducer: $reproducer" >&2
      echo "fuzz: replay it with: $build/tests/fuzz/fuzz_$n $reproducer" >&2
    else
      echo "fuzz: fuzz_$n failed (exit $status) and left no reproducer; its log is above" >&2
    fi
  else
    echo "== fuzz_$n: no finding; its corpus copy now holds $(find "$probe/corpus/$n" -type f | wc -l) inputs"
  fi
done
echo "fuzz: ${#names[@]} target(s), $seconds s each, $((SECONDS - t0)) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
