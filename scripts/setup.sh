#!/usr/bin/env bash
# Set up everything the tests need, from a fresh clone: Debian's chromium (UI tests) and graphviz
# (`dot`: the HTML report's inline SVG graph), a venv,
# tapemagic with its test extra (TensorFlow CPU, JupyterLab, nbclient, playwright) and the
# JupyterLab extension, which pip builds with jlpm. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 || ! command -v dot >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium \
    graphviz
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
# nbclient runs the demo notebooks on this venv's kernel
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
