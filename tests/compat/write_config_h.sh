#!/usr/bin/env bash
# Writes DIR/include/portshmem/config.h for PLATFORM (nvidia or amd) from include/portshmem/config.h.in, as a build for
# that platform configures it: what the compile checks of this folder put first on their include path, so that they
# need no build tree of that platform.
#   usage: write_config_h.sh REPO_ROOT PLATFORM DIR
#   exit:  0 written; 1 a bad platform, or config.h.in has a variable this script does not set
set -euo pipefail
ROOT=${1:?usage: write_config_h.sh REPO_ROOT PLATFORM DIR}
PLATFORM=${2:?usage: write_config_h.sh REPO_ROOT PLATFORM DIR}
DIR=${3:?usage: write_config_h.sh REPO_ROOT PLATFORM DIR}
case $PLATFORM in
nvidia) nvidia=1 amd=0 ;;
amd) nvidia=0 amd=1 ;;
*) echo "write_config_h: PLATFORM is nvidia or amd, not $PLATFORM" >&2; exit 1 ;;
esac
mkdir -p "$DIR/include/portshmem"
out=$DIR/include/portshmem/config.h
sed -e "s/@PORTSHMEM_IS_HOST@/0/; s/@PORTSHMEM_IS_NVIDIA@/$nvidia/; s/@PORTSHMEM_IS_AMD@/$amd/" \
  -e 's/@PORTSHMEM_ENABLE_RDMA_VALUE@/1/; s/@PROJECT_VERSION_MAJOR@/0/; s/@PROJECT_VERSION_MINOR@/0/' \
  -e 's/@PROJECT_VERSION_PATCH@/0/; s/@PROJECT_VERSION@/0.0.0/' \
  "$ROOT/include/portshmem/config.h.in" >"$out"
if grep -q '@' "$out"; then
  echo "write_config_h: config.h.in has a variable this script does not set:" >&2
  grep '@' "$out" >&2
  exit 1
fi
