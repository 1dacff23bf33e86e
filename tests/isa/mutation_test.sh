#!/usr/bin/env bash
# Mutation test of the ISA checks (no GPU needed): copies the repository's include/ to a temporary directory, applies
# one known-bad edit at a time to the copy of the arch layer (include/portshmem/arch/), and runs tests/isa/check_arch.sh
# and tests/isa/check_api.sh (assertions only, not the docs comparison) against the copy. Every mutant must make at
# least one check fail, and the unmutated copy must pass both. A mutant whose edit no longer applies (the code it
# targets changed) or that does not compile fails this test too: it would otherwise "die" for the wrong reason.
#
#   usage: tests/isa/mutation_test.sh REPO_ROOT [--full] [MUTANT...]
#          --full: run both checks on every mutant (default: check_api only for mutants check_arch lets through)
#          MUTANT: run only these (names as listed below)
#   env:   CLANG, NVCC (as the checks), KEEP_DIR (keep the mutated copies and the checks' logs there)
#   exit:  0 every mutant killed; 1 a mutant survived, did not apply or did not compile, or the baseline failed;
#          77 a toolchain is missing (the checks cannot tell a mutant from a skipped target)
set -euo pipefail

ROOT=${1:?usage: mutation_test.sh REPO_ROOT [--full] [MUTANT...]}
ROOT=$(cd "$ROOT" && pwd)
shift
FULL=0
if [[ ${1:-} == --full ]]; then
  FULL=1
  shift
fi
ONLY=("$@")
ISA="$ROOT/tests/isa"
WORK=${KEEP_DIR:-$(mktemp -d /tmp/isa-mutants.XXXXXX)}
mkdir -p "$WORK"
[[ -n ${KEEP_DIR:-} ]] || trap 'rm -rf "$WORK"' EXIT

# The mutants, in the order they run; mutate() below holds each one's edit: literal replacements inside the one
# function or macro it targets, each of which must match as often as stated (so a changed target is noticed).
MUTANTS=(
  amd-fence-no-wait          # the explicit s_waitcnt after the write-back in fence() (clang-19 drops its own)
  amd-acquire-agent          # fence()'s acquire at agent scope where system is asked (an L1-only invalidate)
  amd-bypass-nt              # bypass stores nontemporal again (gfx942 nt, gfx90a glc slc) instead of atomic
  amd-subword-store-plain    # 1- and 2-byte relaxed atomic stores as plain stores
  amd-source-plain           # a put reads its global source with plain loads (the relay bug)
  nv-bypass-cs               # sm_90 bypass stores as weak st.global.cs again
  nv-subword-store-plain     # sm_90 1- and 2-byte atomic stores as weak st.b8 / st.b16
  nv-peer-scope-device       # kPeerDeviceScope = device on NVIDIA (mm::device lowers to .gpu)
  nv-release-relaxed         # sm_90 release stores relaxed: the publish without fence_comm loses its release
  nv-space-global            # sm_90 space_of says global for every pointer (a .global access to a stack buffer)
)

mutate() {  # mutate NAME ARCH_DIR: applies the edit; exit 3 when it does not apply
  python3 - "$1" "$2" <<'PYEOF'
import os, sys
name, arch = sys.argv[1], sys.argv[2]

def between(text, start, end):
    a = text.index(start)
    return a, text.index(end, a)

# name: (file, scope start, scope end, [(old, new, count)]): each old must occur exactly count times between the
# scope markers (the function or macro the mutant targets).
EDITS = {
    "amd-fence-no-wait": ("amd.hpp", "PORTSHMEM_DEVICE void fence() {", "PORTSHMEM_DEVICE void fence_comm() {",
                          [("__builtin_amdgcn_s_waitcnt(detail::kWaitVmLgkm);", "", 1)]),
    "amd-acquire-agent": ("amd.hpp", "PORTSHMEM_DEVICE void fence() {", "namespace detail {",
                          [("PORTSHMEM_AMD_FENCE_SCOPED(__ATOMIC_ACQUIRE, S)",
                            "PORTSHMEM_AMD_FENCE_SCOPED(__ATOMIC_ACQUIRE, (S == scope::system ? scope::device : S))",
                            2)]),
    "amd-bypass-nt": ("amd.hpp", "PORTSHMEM_DEVICE void store_data(", "PORTSHMEM_DEVICE T load_data(",
                      [("__hip_atomic_store(reinterpret_cast<U*>(p), detail::bit_cast<U>(v), __ATOMIC_RELAXED, "
                        "detail::hip_scope<S>);",
                        "__builtin_nontemporal_store(detail::bit_cast<U>(v), reinterpret_cast<U*>(p));", 1)]),
    "amd-subword-store-plain": ("amd.hpp", "PORTSHMEM_DEVICE void store(T* p, T v) {", "PORTSHMEM_DEVICE T exchange(",
                                [("  release_part<store_as, S>();\n",
                                  "  release_part<store_as, S>();\n"
                                  "  if constexpr (sizeof(T) < 4 && store_as == order::relaxed) {\n"
                                  "    *p = v;\n    return;\n  }\n", 1)]),
    "amd-source-plain": ("amd.hpp", "inline constexpr cache kSourceCache", "// ---- wave sync",
                         [("inline constexpr cache kSourceCache = cache::bypass;",
                           "inline constexpr cache kSourceCache = cache::keep;", 1),
                          ("return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);",
                           "return *p;", 1)]),
    "nv-bypass-cs": ("nvidia.hpp", "#define PORTSHMEM_NV_DATA_ST(SC, ...)", "#define PORTSHMEM_NV_DATA_LD(SC, ...)",
                     [('"st.relaxed." SC ".global.', '"st.global.cs.', 4)]),
    "nv-subword-store-plain": ("nvidia.hpp", "#define PORTSHMEM_NV_ST(SC, SEM)", "#define PORTSHMEM_NV_RMW(",
                               [('"st." SEM "." SC ".b8 [%0], %1;"', '"st.b8 [%0], %1;"', 1),
                                ('"st." SEM "." SC ".b16 [%0], %1;"', '"st.b16 [%0], %1;"', 1)]),
    "nv-peer-scope-device": ("common.hpp", "inline constexpr scope kPeerDeviceScope", "} // namespace",
                             [("PORTSHMEM_PLATFORM_NVIDIA ? scope::system : scope::device", "scope::device", 1)]),
    "nv-release-relaxed": ("nvidia.hpp", "PORTSHMEM_DEVICE void store(T* p, T v) {", "namespace detail {",
                           [('PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_ST, "release")',
                             'PORTSHMEM_NV_SCOPED(S, PORTSHMEM_NV_ST, "relaxed")', 1)]),
    "nv-space-global": ("nvidia.hpp", "PORTSHMEM_DEVICE space space_of(const void* p) {", "template <class U>",
                        [("return __isLocal(p) ? space::local : __isShared(p) ? space::shared : space::global;",
                          "return space::global;", 1)]),
}
if name not in EDITS:
    sys.exit(f"unknown mutant {name}")
fname, start, end, edits = EDITS[name]
path = os.path.join(arch, fname)
text = open(path).read()
try:
    a, b = between(text, start, end)
except ValueError:
    sys.exit(3)
region = text[a:b]
for old, new, count in edits:
    if region.count(old) != count:
        sys.exit(3)
    region = region.replace(old, new)
open(path, "w").write(text[:a] + region + text[b:])
PYEOF
}

# Runs one check on an include directory; prints "pass", "fail N <first failure>", "nocompile" or "skip".
run_check() {  # run_check CHECK INCLUDE_DIR LOG
  local rc=0
  if [[ $1 == arch ]]; then
    INCLUDE_DIR="$2" "$ISA/check_arch.sh" "$ROOT" >"$3" 2>&1 || rc=$?
  else
    INCLUDE_DIR="$2" "$ISA/check_api.sh" "$ROOT" --no-docs >"$3" 2>&1 || rc=$?
  fi
  if ((rc == 0)); then
    echo pass
  elif ((rc == 77)); then
    echo skip
  elif grep -q "does not compile" "$3"; then
    echo nocompile
  else
    echo "fail $(grep -c '^FAIL' "$3") $(grep -m1 '^FAIL' "$3" | cut -c1-150)"
  fi
}

for m in "${ONLY[@]}"; do
  [[ " ${MUTANTS[*]} " == *" $m "* ]] || { echo "mutation_test: no mutant named $m (${MUTANTS[*]})" >&2; exit 1; }
done

start=$(date +%s)
status=0
rm -rf "$WORK/baseline"
mkdir -p "$WORK/baseline"
cp -r "$ROOT/include" "$WORK/baseline/include"
for check in arch api; do
  r=$(run_check $check "$WORK/baseline/include" "$WORK/baseline/$check.log")
  case $r in
  pass) ;;
  skip) echo "mutation_test: a toolchain is missing ($check); nothing to tell mutants apart with" >&2; exit 77 ;;
  *) echo "mutation_test: the unmutated copy does not pass check_$check: $r (log: $WORK/baseline/$check.log)" >&2
     [[ -n ${KEEP_DIR:-} ]] || sed -n 1,40p "$WORK/baseline/$check.log" >&2
     exit 1 ;;
  esac
done
echo "baseline (unmutated copy): check_arch and check_api pass"

for m in "${MUTANTS[@]}"; do
  if ((${#ONLY[@]})) && [[ " ${ONLY[*]} " != *" $m "* ]]; then continue; fi
  dir="$WORK/$m"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$ROOT/include" "$dir/include"
  if ! mutate "$m" "$dir/include/portshmem/arch"; then
    printf '%-26s NOT APPLIED (the code it edits changed: update tests/isa/mutation_test.sh)\n' "$m"
    status=1
    continue
  fi
  verdict=SURVIVED
  detail=""
  for check in arch api; do
    if [[ $verdict == killed && $FULL == 0 ]]; then break; fi
    r=$(run_check $check "$dir/include" "$dir/$check.log")
    case $r in
    fail*)
      verdict=killed
      read -r _ n first <<<"$r"
      detail+="check_$check: $n failure(s), e.g. ${first#FAIL }; " ;;
    nocompile) verdict=INVALID; detail+="check_$check: does not compile; "; break ;;
    skip) verdict=INVALID; detail+="check_$check: a target was skipped; "; break ;;
    pass) detail+="check_$check: passes; " ;;
    esac
  done
  printf '%-26s %-8s %s\n' "$m" "$verdict" "${detail%; }"
  [[ $verdict == killed ]] || status=1
done
echo "mutation_test: $(($(date +%s) - start)) s, $([[ $status == 0 ]] && echo "every mutant killed" || echo FAILED)"
exit $status
