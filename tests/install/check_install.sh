#!/usr/bin/env bash
# Installs a built portshmem into a scratch prefix, then builds a consumer twice — with find_package(portshmem) and
# with pkg-config — and runs both on 2 PEs.
#   check_install.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/install/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
# shellcheck disable=SC2046
c++ -std=c++20 "$src/tests/install/consumer/main.cpp" $(pkg-config --cflags --libs portshmem) \
  -Wl,-rpath,"$work/prefix/lib" -o "$work/consumer-pkgconfig"
export LD_LIBRARY_PATH="$work/prefix/lib:${LD_LIBRARY_PATH:-}"
"$work/prefix/bin/portshmem-run" -np 2 "$work/cmake-build/consumer"
"$work/prefix/bin/portshmem-run" -np 2 "$work/consumer-pkgconfig"
"$work/prefix/bin/portshmem-info" >/dev/null
echo "install check: find_package and pkg-config consumers built and ran"
