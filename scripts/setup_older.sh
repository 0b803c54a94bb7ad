#!/usr/bin/env bash
# A second venv, .venv-older, with the oldest supported Keras-3-era TensorFlow and the previous
# IPython major, for the non-UI suite (scripts/test_older.sh). tapemagic itself is put on
# PYTHONPATH rather than installed, so no JupyterLab extension build is needed here. Safe to run
# again. OLDER_TF / OLDER_IPYTHON override the pins.
set -euo pipefail
cd "$(dirname "$0")/.."
OLDER_TF="${OLDER_TF:-2.18.1}"
OLDER_IPYTHON="${OLDER_IPYTHON:-8.*}"
[ -x .venv-older/bin/python ] || python3 -m venv .venv-older
if ! .venv-older/bin/python -c "import tensorflow, IPython, sys; \
    sys.exit(tensorflow.__version__ != '$OLDER_TF')" 2>/dev/null; then
  .venv-older/bin/python -m pip install -q --upgrade pip
  # the runtime dependencies of pyproject.toml, then the test tools the non-UI suite needs
  .venv-older/bin/python -m pip install -q "tensorflow-cpu==$OLDER_TF" "ipython==$OLDER_IPYTHON" \
    "numpy>=1.24" "graphviz>=0.20" "jsonschema>=4.17" "libcst>=1.1" \
    "pytest>=8" "hypothesis>=6.100" "nbclient>=0.10" "nbformat>=5.9" "ipykernel>=6.29"
fi
# nbclient runs the demo notebooks on this venv's kernel
.venv-older/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
