#!/usr/bin/env bash
# The non-UI suite on the second supported stack (.venv-older: the oldest Keras-3-era
# TensorFlow tapemagic supports and the previous IPython major), tapemagic from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_older.sh
export TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
.venv-older/bin/python -c "import tensorflow, IPython, keras; print('older stack: TensorFlow', \
tensorflow.__version__, 'Keras', keras.__version__, 'IPython', IPython.__version__)"
.venv-older/bin/python -m pytest -q -p no:cacheprovider -m "not ui" "$@"
