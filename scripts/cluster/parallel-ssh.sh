#!/bin/sh
# parallel-ssh.sh N SUBMISSIONS OUT HOST...: a class graded in N shards over
# ssh with GNU parallel, then merged here into OUT/class.
#   ATTNLAB_SECRET=... scripts/cluster/parallel-ssh.sh 8 /shared/course/submissions \
#       /shared/course/graded 4/node1 4/node2
# Each HOST is an ssh login as parallel's --sshlogin takes it (4/node1: four
# shards at once there). The folders are paths on a file system every host
# shares, and every host runs the same attnlab (ATTNLAB, default attnlab on
# the PATH: one install on that file system): merge refuses shards graded by
# different builds. The secret goes to each host in the environment (--env),
# never on a command line. Run it again after a failure: each shard grades
# only the students it has left.
set -eu
N=${1:?give the number of shards}
SUB=${2:?give the submissions folder}
OUT=${3:?give the folder for the shards}
shift 3
[ $# -gt 0 ] || { echo "give at least one ssh login (4/node1)" >&2; exit 2; }
: "${ATTNLAB_SECRET:?export ATTNLAB_SECRET first}"
export ATTNLAB_SECRET
ATTNLAB=${ATTNLAB:-attnlab}
logins=""
for h in "$@"; do logins="$logins --sshlogin $h"; done
mkdir -p "$OUT"
# shellcheck disable=SC2086
seq 1 "$N" | parallel $logins --env ATTNLAB_SECRET --halt never \
    "$ATTNLAB batch '$SUB' --out '$OUT/shard-{}' --shard {}/$N -q --jobs 1"
exec "$ATTNLAB" merge "$OUT"/shard-* --out "$OUT/class"
