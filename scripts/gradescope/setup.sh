#!/bin/sh
# setup.sh: Gradescope runs this once, as root, when it builds the autograder's
# image from autograder.zip (unpacked in /autograder/source). It installs the
# Debian packages attnlab needs, and jq (run_autograder reads Gradescope's
# submission_metadata.json with it), then builds attnlab. Any failure stops the
# image build with the reason, so a broken autograder never grades anyone.
set -eu
cd "$(dirname "$0")"
sh scripts/install-deps.sh
if ! command -v jq >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -qq jq
fi
make -j"$(nproc)"
./build/attnlab --help >/dev/null
