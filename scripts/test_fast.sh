#!/usr/bin/env bash
# The fast tier: every test that runs in this process (no UI, no CLI/kernel/server child
# processes), on the venv scripts/setup.sh made. Arguments go to pytest (a file, -k, -x, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
export TF_CPP_MIN_LOG_LEVEL=3
PYTHON="${PYTHON:-.venv/bin/python}"
"$PYTHON" -m pytest -q -p no:cacheprovider -m "not ui and not slow" "$@"
