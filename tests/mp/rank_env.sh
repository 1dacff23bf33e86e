#!/usr/bin/env bash
# rank_env.sh RANK NAME=VALUE PROGRAM [ARGS...]: runs PROGRAM with NAME=VALUE added to the environment of MPI rank
# RANK only (the others run it unchanged), so a test can give one PE an environment the others do not have.
# The rank comes from the launcher: OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH) or PMIX_RANK.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: rank_env.sh RANK NAME=VALUE PROGRAM [ARGS...]" >&2; exit 2; }
rank=$1
assignment=$2
shift 2
mine=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-}}}
[ -n "$mine" ] || { echo "rank_env.sh: no MPI rank in the environment (run it under mpirun)" >&2; exit 2; }
if [ "$mine" = "$rank" ]; then
  export "${assignment?}"
fi
exec "$@"
