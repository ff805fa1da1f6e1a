#!/bin/sh
# merge-shards.sh N SUBMISSIONS OUT [BATCH OPTIONS...]: OUT/shard-1 .. OUT/shard-N,
# graded by slurm.sbatch, parallel-ssh.sh or the Kubernetes Job, merged into
# OUT/class. It takes the arguments the shards were graded with and gives
# attnlab merge the ones merge needs (--rubrics, --secret-file, --csv-bom).
# The shards are named 1 to N, so a missing one is named by merge (a stale
# shard-9 of an earlier N=10 is never merged); merge refuses shards that are
# not one run's, whole. An earlier OUT/class is replaced only once the new
# merge is whole: run it again as often as needed.
#   sbatch --dependency=afterany:JOBID scripts/cluster/merge-shards.sh 8 sub graded ...
#   scripts/cluster/merge-shards.sh 8 sub graded --secret-file ~/secret ...
# attnlab is ATTNLAB (a path) or attnlab on the PATH.
#SBATCH --job-name=attnlab-merge
set -eu
N=${1:?give the number of shards}
SUB=${2:?give the submissions folder}
OUT=${3:?give the folder holding shard-1 .. shard-N}
shift 3
case $N in '' | *[!0-9]* | 0*) echo "merge-shards.sh: N is a number from 1 (got '$N')" >&2; exit 2 ;; esac
# keep of the batch options what merge takes, in order (the rest only grade)
n=$#
while [ "$n" -gt 0 ]; do
    case $1 in
    --rubrics | --secret-file)
        [ "$n" -ge 2 ] || { echo "merge-shards.sh: $1 needs a value" >&2; exit 2; }
        set -- "$@" "$1" "$2"; shift 2; n=$((n - 2)) ;;
    --rubrics=* | --secret-file=* | --csv-bom) set -- "$@" "$1"; shift; n=$((n - 1)) ;;
    *) shift; n=$((n - 1)) ;;
    esac
done
k=$N
while [ "$k" -ge 1 ]; do
    set -- "$OUT/shard-$k" "$@"
    k=$((k - 1))
done
rm -rf "$OUT/class.new" "$OUT/class.old"
"${ATTNLAB:-attnlab}" merge "$@" --submissions "$SUB" --out "$OUT/class.new"
if [ -e "$OUT/class" ]; then mv "$OUT/class" "$OUT/class.old"; fi
mv "$OUT/class.new" "$OUT/class"
rm -rf "$OUT/class.old"
echo "merged $N shards into $OUT/class"
