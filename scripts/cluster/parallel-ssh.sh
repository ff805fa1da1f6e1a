#!/bin/sh
# parallel-ssh.sh LOGINS N SUBMISSIONS OUT [BATCH OPTIONS...]: a class graded
# in N shards over ssh with GNU parallel, then merged here into OUT/class
# (merge-shards.sh). The arguments after LOGINS are slurm.sbatch's:
#   scripts/cluster/parallel-ssh.sh 4/node1,4/node2 8 /shared/course/submissions \
#       /shared/course/graded --secret-file /shared/course/secret --roster roster.yaml
# LOGINS is parallel's --sshlogin list: 4/node1 runs four shards at once on
# node1; an entry may carry its ssh command (2/ssh -p 2222 -i key me@node3).
# Every host runs in the folder this is run from, on a file system they all
# share with the same path, so relative paths mean the same everywhere.
# attnlab is ATTNLAB (a path, made absolute here) or attnlab on each host's
# PATH, one build for all (merge refuses shards of different builds).
# The secret is a file on that file system (--secret-file FILE or
# ATTNLAB_SECRET_FILE), whose path alone goes to the hosts: ATTNLAB_SECRET is
# refused, since parallel would pass it on the ssh command line (ps shows it).
# ATTNLAB_ROOT and ATTNLAB_BUILD_CACHE, when set, go to the hosts as they are.
# Run it again after a failure or a success: each shard grades only the
# students it has left, and the merge replaces OUT/class once it is whole.
set -eu
LOGINS=${1:?give the ssh logins (4/node1,4/node2)}
N=${2:?give the number of shards}
SUB=${3:?give the submissions folder}
OUT=${4:?give the folder for the shards}
shift 4
if [ -n "${ATTNLAB_SECRET:-}" ]; then
    echo "parallel-ssh.sh: ATTNLAB_SECRET would reach the hosts on ssh's command line:" \
         "unset it, put the secret in a file (chmod 600) and give --secret-file FILE" \
         "or ATTNLAB_SECRET_FILE=FILE" >&2
    exit 2
fi
case $N in '' | *[!0-9]* | 0*) echo "parallel-ssh.sh: N is a number from 1 (got '$N')" >&2; exit 2 ;; esac
ATTNLAB=${ATTNLAB:-attnlab}
case $ATTNLAB in
*/*) ATTNLAB=$(cd "$(dirname "$ATTNLAB")" && pwd)/$(basename "$ATTNLAB"); export ATTNLAB ;;
esac
if [ -n "${ATTNLAB_SECRET_FILE:-}" ]; then
    set -- --secret-file "$ATTNLAB_SECRET_FILE" "$@"
    unset ATTNLAB_SECRET_FILE                 # given once, as the option
fi
envs=""
for v in ATTNLAB_ROOT ATTNLAB_BUILD_CACHE; do
    eval "[ -z \"\${$v:-}\" ]" || envs="$envs --env $v"
done
mkdir -p "$OUT"
# -q: parallel quotes each word for the remote shell, so options with spaces survive
# shellcheck disable=SC2086
if ! seq 1 "$N" | parallel -q --sshlogin "$LOGINS" --workdir "$PWD" $envs --halt never \
        "$ATTNLAB" batch "$SUB" --out "$OUT/shard-{}" --shard "{}/$N" -q --jobs 1 "$@"; then
    echo "parallel-ssh.sh: a shard failed (its lines above); run this again: each shard" \
         "grades only the students it has left" >&2
    exit 1
fi
exec sh "$(dirname "$0")/merge-shards.sh" "$N" "$SUB" "$OUT" "$@"
