#!/usr/bin/env bash
# Set up everything the tests need, from a fresh clone: Debian's chromium (UI tests), a venv,
# tapemagic with its test extra (TensorFlow CPU, JupyterLab, nbclient, playwright) and the
# JupyterLab extension, which pip builds with jlpm. Safe to run again. No Graphviz: the HTML
# report draws its graph in Python (tests that lay DOT out with `dot` skip without it).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
# nbclient runs the demo notebooks on this venv's kernel
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
