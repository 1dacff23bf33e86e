#!/usr/bin/env bash
# Lint: every tracked C/C++ file is as clang-format leaves it (.clang-format), and every shell script passes the
# warning level of shellcheck. Installs shellcheck with apt when it is missing. Exit 1 on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v shellcheck >/dev/null; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y -qq --no-install-recommends shellcheck >/dev/null
fi
command -v clang-format >/dev/null || { echo "lint: clang-format not found" >&2; exit 1; }
failed=0
mapfile -t sources < <(git ls-files '*.hpp' '*.cpp' '*.h' '*.cu' '*.hip')
if ! clang-format --dry-run --Werror "${sources[@]}"; then
  echo "lint: clang-format would change the files above (run clang-format -i on them)" >&2
  failed=1
fi
mapfile -t shells < <(git ls-files '*.sh' .ci/run scripts/portshmem-run)
if ! shellcheck -S warning "${shells[@]}"; then
  echo "lint: shellcheck findings above" >&2
  failed=1
fi
[ "$failed" = 0 ] && echo "lint: ${#sources[@]} C/C++ files formatted, ${#shells[@]} shell scripts clean"
exit "$failed"
