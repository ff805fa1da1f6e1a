#!/bin/sh
# Make sure the system packages attnlab builds and runs with are installed.
# As root on Debian/Ubuntu, install what is missing with apt-get; otherwise print
# the exact command to run and fail, so nothing half-builds.
#   install-deps.sh        what make, make test and make grade need
#   install-deps.sh fuzz   that, and clang with its libFuzzer runtime (make fuzz)
#   install-deps.sh spreadsheet  that, and LibreOffice Calc without a display:
#                          optional, for the test that opens gradebook.csv as
#                          an instructor would (test_gradebook skips it, saying
#                          so, without soffice)
#   install-deps.sh browser  that, and Chromium: optional, for the test that
#                          renders report.html headless (test_report_html skips
#                          its browser checks, saying so, without chromium)
#   install-deps.sh cluster  that, and Slurm, munge, an ssh server and GNU
#                          parallel: for make test-cluster, which runs
#                          scripts/cluster/ on a one-node Slurm and over ssh
# Extras combine: install-deps.sh spreadsheet browser
set -u
missing=""
need() { # need PACKAGE TEST-COMMAND...
    pkg=$1; shift
    "$@" >/dev/null 2>&1 || missing="$missing $pkg"
}
need build-essential command -v cc
need make           command -v make
need pkg-config     command -v pkg-config
need check          pkg-config --exists check
need libyaml-dev    pkg-config --exists yaml-0.1
need libseccomp-dev pkg-config --exists libseccomp
need libjansson-dev pkg-config --exists jansson
need gnuplot-nox    command -v gnuplot
need binutils       command -v nm
# attnlab bench times one-core OpenBLAS sgemm as the machine's limit (loaded
# at run time: nothing links against it, and bench runs without it).
need libopenblas0   sh -c 'ls /usr/lib/*/libopenblas.so.0 || ls /usr/lib/libopenblas.so.0'
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || [ -f /usr/lib/libc.a ] || \
    ls /usr/lib/*/libc.a >/dev/null 2>&1 || missing="$missing libc6-dev"

# libFuzzer ships with clang's runtime libraries: libclang-rt-N-dev for clang N
# on Debian 12 and later, libclang-common-N-dev before.
# When apt knows neither (no package lists yet), take the newer name.
rt_package() { # rt_package VERSION-SUFFIX
    if ! apt-cache show "libclang-rt$1-dev" >/dev/null 2>&1 &&
         apt-cache show "libclang-common$1-dev" >/dev/null 2>&1; then
        echo "libclang-common$1-dev"
    else
        echo "libclang-rt$1-dev"
    fi
}
if [ "${1:-}" = fuzz ]; then
    if ! command -v clang >/dev/null 2>&1; then
        missing="$missing clang $(rt_package "")"
    else
        tmp=$(mktemp -d)
        echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (int)(n && !d); }' \
            > "$tmp/t.c"
        if ! clang -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1; then
            v=$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
            missing="$missing $(rt_package "-$v")"
        fi
        rm -rf "$tmp"
    fi
fi

for extra in "$@"; do
    case $extra in
    spreadsheet) need libreoffice-calc-nogui command -v soffice ;;
    browser) need chromium command -v chromium ;;
    cluster)
        need slurm-wlm       sh -c 'command -v slurmctld && command -v slurmd && command -v sbatch'
        need munge           command -v munged
        need openssh-server  test -x /usr/sbin/sshd
        need openssh-client  command -v ssh-keygen
        need parallel        sh -c 'parallel --version | grep -q "GNU parallel"'
        need procps          command -v ps ;;
    esac
done

[ -z "$missing" ] && exit 0
cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "attnlab: installing missing packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && $cmd -qq; } || { echo "attnlab: '$cmd' failed" >&2; exit 1; }
else
    echo "attnlab: missing packages:$missing" >&2
    echo "attnlab: install them with:  sudo $cmd" >&2
    exit 1
fi
