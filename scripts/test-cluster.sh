#!/bin/sh
# test-cluster.sh [ATTNLAB]: scripts/cluster/ run as an instructor runs them,
# on a one-node Slurm and over ssh to this machine (make test-cluster, as root:
# it starts daemons). In a temporary folder it starts munged, slurmctld and
# slurmd (a generated slurm.conf: this machine's CPUs and memory, no cgroups)
# and an sshd on 127.0.0.1 (generated host and user keys), each on a free
# port and socket of its own, and grades one small class four ways:
#   one plain attnlab batch, the secret in ATTNLAB_SECRET (the reference);
#   slurm.sbatch as a job array, attnlab found on the PATH, then merge-shards.sh;
#   a failed task recovered as slurm.sbatch documents: the merge refused, the
#   task run again alone (sbatch --array=2), the merge run again;
#   parallel-ssh.sh over ssh, twice (the second run must succeed too).
# Each merged class must be the plain batch's byte for byte (every file), the
# secret file's content must appear on no command line (ps, sampled) and in
# none of Slurm's saved state, both scripts refuse ATTNLAB_SECRET (and
# slurm.sbatch a node without attnlab, saying how to give it); the
# Kubernetes Jobs (templates: not run here) share one N. Every
# daemon it started is stopped on exit (trap), the folder removed: run it
# again as often as you like. Prints each run's wall time.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ATTNLAB=${1:-$ROOT/build/attnlab}
case $ATTNLAB in /*) ;; *) ATTNLAB=$(pwd)/$ATTNLAB ;; esac
CL=$ROOT/scripts/cluster
SHARDS=3
[ "$(id -u)" = 0 ] || { echo "test-cluster: run as root (it starts slurmd, munged and sshd)" >&2; exit 1; }
for c in munged slurmctld slurmd sbatch sshd parallel; do
    command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] ||
        { echo "test-cluster: $c is missing: sh scripts/install-deps.sh cluster" >&2; exit 1; }
done
W=$(mktemp -d /tmp/attnlab-cluster-XXXXXX)
PIDS=""          # every daemon this run started, newest first
MADE_RUN_SSHD=""
SAMPLER=""       # the ps sampler's pid while it runs
fail() { echo "test-cluster: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{printf "%.1f", $2 - $1}'; }

cleanup() {
    if [ -n "${SLURM_CONF:-}" ]; then     # no job left to outlive slurmd
        scancel --quiet --user=root 2>/dev/null || true
        wait_for 100 no_jobs || true
    fi
    [ -z "$SAMPLER" ] || stop_ps
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
    for p in $PIDS; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null || true
    done
    [ -z "$MADE_RUN_SSHD" ] || rmdir /run/sshd 2>/dev/null || true
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# A TCP port nothing listens on (any address), from a range picked by our pid.
free_port() {
    p=$((20000 + ($$ * 7 + $1 * 131) % 40000))
    while grep -Eqi ":$(printf '%04X' "$p") [0-9A-F]+:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
        p=$((p + 1))
    done
    echo "$p"
}

# Wait until the command succeeds (0) or N tenths of a second pass (1).
wait_for() {
    n=$1; shift
    while ! "$@" >/dev/null 2>&1; do
        n=$((n - 1)); [ "$n" -gt 0 ] || return 1
        sleep 0.1
    done
}

# ---- the class: labs 1 and 2, solutions, mutants, a stub, late and absent -----
make_class() {
    s=$ROOT/solutions
    mkdir -p sub/s01/lab01-scores sub/s01/lab02-softmax sub/s02 sub/s03 sub/s04 sub/s05 sub/s06
    cp "$s/lab01-scores/lab01.c" sub/s01/lab01-scores/
    cp "$s/lab02-softmax/lab02.c" sub/s01/lab02-softmax/
    cp "$s/lab01-scores/lab01.c" "$s/lab02-softmax/lab02.c" sub/s02/
    sed 's|1.0 / sqrt((double)d));|1.0);|' "$s/lab01-scores/lab01.c" > sub/s03/lab01.c
    cp "$s/lab02-softmax/lab02.c" sub/s03/
    cp "$s/lab01-scores/lab01.c" sub/s04/Lab01.c
    sed 's|expf(s\[j\] - maxval)|expf(s[j])|' "$s/lab02-softmax/lab02.c" > sub/s04/lab02.c
    cp "$ROOT/data/stubs/lab01.c" "$ROOT/data/stubs/lab02.c" sub/s05/
    ! cmp -s sub/s03/lab01.c "$s/lab01-scores/lab01.c" || fail "the lab 1 mutant is the solution"
    ! cmp -s sub/s04/lab02.c "$s/lab02-softmax/lab02.c" || fail "the lab 2 mutant is the solution"
    printf 'due: {1: 2025-02-07T23:59:00Z, 2: 2025-02-14T23:59:00Z}\nlate_penalty_percent: 10\n' \
        > course.yaml
    printf 's01: 2025-02-07T20:00:00Z\ns03: 2025-02-09T10:00:00Z\n' > times.yaml
    printf 'students:\n  - {id: s01, name: "Lovelace, Ada"}\n  - {id: s07, name: Absent}\n' \
        > roster.yaml
    head -c 32 /dev/urandom | base64 > secret
    chmod 600 secret
}

# ---- munged: its own key, socket and files ---------------------------------------
start_munge() {
    mkdir -m 700 munge
    head -c 1024 /dev/urandom > munge/munge.key
    chmod 400 munge/munge.key
    munged -F -f --key-file="$W/munge/munge.key" --socket="$W/munge/socket" \
        --pid-file="$W/munge/pid" --log-file="$W/munge/log" --seed-file="$W/munge/seed" \
        2> munge/out &
    PIDS="$! $PIDS"
    wait_for 100 test -S "$W/munge/socket" || fail "munged did not start: $(cat munge/log)"
}

# ---- slurmctld and slurmd: one node, this machine ------------------------------
start_slurm() {
    mkdir -p slurm/state slurm/spool log
    hw=$(slurmd -C | head -n 1)
    cpus=$(echo "$hw" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
    mem=$(echo "$hw" | sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p')
    cat > slurm/slurm.conf <<EOF
ClusterName=attnlabtest
SlurmctldHost=localhost
SlurmctldPort=$(free_port 1)
SlurmdPort=$(free_port 2)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/socket
CredType=cred/munge
StateSaveLocation=$W/slurm/state
SlurmdSpoolDir=$W/slurm/spool
SlurmctldPidFile=$W/slurm/slurmctld.pid
SlurmdPidFile=$W/slurm/slurmd.pid
SlurmctldLogFile=$W/slurm/slurmctld.log
SlurmdLogFile=$W/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$W/slurm/slurm.conf"
    slurmctld -D -c -f "$SLURM_CONF" > slurm/slurmctld.out 2>&1 &
    PIDS="$! $PIDS"
    slurmd -D -N localhost -f "$SLURM_CONF" > slurm/slurmd.out 2>&1 &
    PIDS="$! $PIDS"
    wait_for 300 node_idle || fail "slurm did not start: $(tail -n 5 slurm/slurmctld.log slurm/slurmd.log)"
}
node_idle() { sinfo -h -N -o %t | grep -qx idle; }
no_jobs() { ! squeue -h | grep -q .; }

# Wait for Slurm job $1 to end; its state (COMPLETED, FAILED ...).
job_end() {
    while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 0.5; done
    scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}

# ---- sshd on 127.0.0.1: its own host key, one user key ----------------------------
start_sshd() {
    mkdir -m 700 ssh
    ssh-keygen -q -t ed25519 -N '' -f ssh/host_key
    ssh-keygen -q -t ed25519 -N '' -f ssh/user_key
    cp ssh/user_key.pub ssh/authorized_keys
    port=$(free_port 3)
    cat > ssh/sshd_config <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $W/ssh/host_key
AuthorizedKeysFile $W/ssh/authorized_keys
PidFile $W/ssh/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
    [ -d /run/sshd ] || { mkdir -m 755 /run/sshd && MADE_RUN_SSHD=1; }
    /usr/sbin/sshd -D -e -f "$W/ssh/sshd_config" 2> ssh/sshd.log &
    PIDS="$! $PIDS"
    SSH="ssh -p $port -i $W/ssh/user_key -o BatchMode=yes -o StrictHostKeyChecking=no"
    SSH="$SSH -o UserKnownHostsFile=$W/ssh/known_hosts -o LogLevel=ERROR root@127.0.0.1"
    # shellcheck disable=SC2086
    wait_for 100 $SSH true || fail "sshd did not start: $(cat ssh/sshd.log)"
}

# ---- the runs -------------------------------------------------------------------
# Every command line on the machine, every half second, until the file stop exists.
sample_ps() {
    rm -f "$W/ps.stop"
    while [ ! -e "$W/ps.stop" ]; do ps -eo args >> "$W/ps.log"; sleep 0.5; done &
    SAMPLER=$!
}
stop_ps() { touch "$W/ps.stop"; wait "$SAMPLER" || true; SAMPLER=""; }

# Every file of the merged folder $2 is the plain batch $1's, and no other file.
same_as() {
    diff -r "$1" "$2" > "$W/diff.txt" || fail "$2 differs from one batch: $(head -n 20 "$W/diff.txt")"
    echo "  $2: $(find "$2" -type f | wc -l) files, the plain batch's byte for byte"
}

ARGS="--lab 1,2 --roster roster.yaml --course course.yaml --times times.yaml"

run_one() { # OUT
    t0=$(now)
    # shellcheck disable=SC2086
    ATTNLAB_SECRET=$(cat secret) ATTNLAB_BUILD_CACHE=$W/cache-one \
        "$ATTNLAB" batch sub --out "$1" --jobs 2 -q $ARGS > "log/$1.out"
    echo "one batch into $1, --jobs 2: $(secs "$t0" "$(now)") s"
}

# The array and the merge job as slurm.sbatch's comment has them, attnlab
# found on the PATH; prints the merge job's end state.
submit() { env "PATH=$W/bin:$PATH" "ATTNLAB_BUILD_CACHE=$W/cache-slurm" sbatch --parsable "$@"; }
slurm_run() { # OUT ARRAY
    # shellcheck disable=SC2086
    jid=$(submit --array="$2" --output="$W/log/$1-%a.out" \
        "$CL/slurm.sbatch" "$SHARDS" sub "$1" --secret-file secret $ARGS)
    # shellcheck disable=SC2086
    mid=$(submit --dependency="afterany:$jid" --output="$W/log/$1-merge.out" \
        "$CL/merge-shards.sh" "$SHARDS" sub "$1" --secret-file secret $ARGS)
    job_end "$mid"
}

run_slurm() {
    mkdir bin && ln -s "$ATTNLAB" bin/attnlab
    t0=$(now)
    state=$(slurm_run graded-slurm "1-$SHARDS")
    echo "slurm.sbatch, $SHARDS tasks, then merge-shards.sh: $(secs "$t0" "$(now)") s ($(nproc) CPUs)"
    [ "$state" = COMPLETED ] || fail "the merge job ended $state: $(cat log/graded-slurm-*)"
    same_as one graded-slurm/class
    # a task lost: the merge refuses, naming the shard; task 2 again alone, then the merge
    state=$(slurm_run graded-lost 1,3)
    if [ "$state" = COMPLETED ] || ! grep -q "shard-2 is not the output" log/graded-lost-merge.out; then
        fail "a merge without shard 2 ended $state: $(cat log/graded-lost-merge.out)"
    fi
    state=$(slurm_run graded-lost 2)
    [ "$state" = COMPLETED ] || fail "the merge after task 2 again ended $state"
    same_as one graded-lost/class
    ! grep -rqF "$(cat secret)" slurm/state || fail "the secret is in Slurm's saved state"
}

# The second run reads every student back, as a plain batch run again does:
# its run.txt and reports say so (graded 0 6), and are compared with that.
run_ssh() {
    cp -a one one-again
    run_one one-again
    for attempt in first again; do
        t0=$(now)
        # shellcheck disable=SC2086
        ATTNLAB=$ATTNLAB ATTNLAB_BUILD_CACHE=$W/cache-ssh ATTNLAB_SECRET_FILE=secret \
            sh "$CL/parallel-ssh.sh" "2/$SSH" "$SHARDS" sub graded-ssh $ARGS > "log/ssh-$attempt.out" 2>&1 ||
            fail "parallel-ssh.sh ($attempt run): $(cat "log/ssh-$attempt.out")"
        echo "parallel-ssh.sh ($attempt run), 2 at a time, then merge: $(secs "$t0" "$(now)") s"
        same_as "$([ $attempt = first ] && echo one || echo one-again)" graded-ssh/class
    done
}

# The Kubernetes templates (not run here) give the Indexed Job and the merge
# Job one N and one set of batch options: completions, SHARDS, BATCH_ARGS.
k8s_jobs_agree() {
    n=$(sed -n 's/^ *completions: *\([0-9]*\)$/\1/p' "$CL/k8s-indexed-job.yaml")
    for f in k8s-indexed-job k8s-merge-job; do
        grep -q "{name: SHARDS, value: \"$n\"}" "$CL/$f.yaml" ||
            fail "$f.yaml: SHARDS is not completions ($n) of k8s-indexed-job.yaml"
    done
    [ "$(grep 'name: BATCH_ARGS' "$CL/k8s-indexed-job.yaml")" = \
      "$(grep 'name: BATCH_ARGS' "$CL/k8s-merge-job.yaml")" ] ||
        fail "k8s-indexed-job.yaml and k8s-merge-job.yaml have different BATCH_ARGS"
}

refusals() {
    for s in "slurm.sbatch 1 sub x" "parallel-ssh.sh : 1 sub x"; do
        # shellcheck disable=SC2086
        if ATTNLAB_SECRET=x SLURM_ARRAY_TASK_ID=1 sh "$CL"/$s > log/env.out 2>&1 ||
           ! grep -q "ATTNLAB_SECRET" log/env.out; then
            fail "${s%% *} ran with ATTNLAB_SECRET set: $(cat log/env.out)"
        fi
    done
    if ATTNLAB=/nonexistent/attnlab SLURM_ARRAY_TASK_ID=1 sh "$CL/slurm.sbatch" 1 sub x \
           > log/path.out 2>&1 || ! grep -q "ATTNLAB=/absolute/path" log/path.out || [ -e x ]; then
        fail "slurm.sbatch without attnlab: $(cat log/path.out)"
    fi
}

cd "$W"
make_class
mkdir log
refusals
k8s_jobs_agree
start_munge
start_slurm
start_sshd
echo "test-cluster: a class of 6 folders and a roster student, labs 1 and 2, $SHARDS shards," \
     "on $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
run_one one
sample_ps
run_slurm
run_ssh
stop_ps
grep -q "attnlab batch" ps.log || fail "the ps samples saw no attnlab batch"
# each run built the class's distinct files into its own cache (the variable
# reached the jobs and hosts): the same number of programs as the plain batch
count() { find "$1" -mindepth 1 -maxdepth 1 | wc -l; }
for c in cache-slurm cache-ssh; do
    [ "$(count "$c")" -eq "$(count cache-one)" ] ||
        fail "$c holds $(count "$c") programs, the plain batch built $(count cache-one)"
done
! grep -qF "$(cat secret)" ps.log || fail "the secret was on a command line"
echo "test-cluster: passed ($(wc -l < ps.log) command lines sampled, none with the secret)"
