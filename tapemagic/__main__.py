"""``python -m tapemagic``: the terminal door (see :mod:`tapemagic.cli`)."""

from __future__ import annotations

import sys

from tapemagic.cli import EXIT_STATUS, main, split_run_arguments

__all__ = ["EXIT_STATUS", "main", "split_run_arguments"]

if __name__ == "__main__":
    sys.exit(main())
