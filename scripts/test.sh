#!/usr/bin/env bash
# The one test command: set up (idempotent), then run the whole suite with real TensorFlow,
# IPython, nbclient, JupyterLab and headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export TF_CPP_MIN_LOG_LEVEL=3
# TypeScript unit tests of the lab extension (node's test runner), then the whole pytest suite.
(export PATH="$PWD/.venv/bin:$PATH"; cd labextension && jlpm test)
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
