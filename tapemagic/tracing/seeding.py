"""Fixed random seeds in a fix verification's re-runs, so their losses can be compared.

A verification re-runs the user's code twice in fresh processes, once as it is and once with a
fix applied, and compares the loss of the checked step (``tapemagic.verify``). Unseeded weights
would differ between the two processes; with :data:`SEED_ENV` set (only in those children, never
in the user's process) Python's, NumPy's and TensorFlow's global seeds are fixed before the
code makes its weights (Keras 3 draws its default initialiser seeds from Python's ``random``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import sys

#: Set to an integer in the environment of a verification re-run.
SEED_ENV = "TAPEMAGIC_VERIFY_SEED"


def seed_from_env(load: bool = False) -> None:
    """Fix the global seeds when :data:`SEED_ENV` is set.

    NumPy's and TensorFlow's only when they are imported, or ``load`` (a notebook replay,
    before the cells that import them).
    """
    value = os.environ.get(SEED_ENV)
    if value is None or not value.strip().lstrip("-").isdigit():
        return
    seed = int(value)
    random.seed(seed)
    if load:
        for name in ("numpy", "tensorflow"):
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed)
    tf = sys.modules.get("tensorflow")
    if tf is not None and hasattr(tf, "random"):
        tf.random.set_seed(seed)
