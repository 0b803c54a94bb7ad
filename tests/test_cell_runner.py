"""The one cell runner's reading of a cell: which cell magic IPython runs it with."""

from __future__ import annotations

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from tapemagic.cell_runner import cell_magic
from tapemagic.cli.kernel import has_own_check
from tapemagic.magic import lines_above_gradcheck

CELLS = [
    ("%%gradcheck\nx = 1\n", "gradcheck"),
    ("%%gradcheck rep --steps 2\nx = 1\n", "gradcheck"),
    ("\n\n%%gradcheck\nx = 1\n", "gradcheck"),
    ("   \n\t\n%%gradcheck\nx = 1\n", "gradcheck"),  # whitespace-only lines are dropped too
    ("%%time\nx = 1\n", "time"),
    ("%%\nx = 1\n", ""),
    ("x = 1\n%%gradcheck\n", None),
    ("  %%gradcheck\nx = 1\n", None),  # indented: not a cell magic
    ("%gradcheck on\n", None),
    ("", None),
]


@pytest.mark.parametrize(("raw", "name"), CELLS)
def test_cell_magic_is_the_one_ipython_runs(raw: str, name: str | None) -> None:
    assert cell_magic(raw) == name
    # IPython's own reading: the cell becomes one run_cell_magic call, or stays code
    transformed = TransformerManager().transform_cell(raw)
    if name:
        assert transformed.startswith(f"get_ipython().run_cell_magic({name!r}, ")


def test_every_door_reads_the_gradcheck_cell_alike() -> None:
    """The notebook runner leaves a cell to ``%%gradcheck`` exactly when IPython runs it so."""
    for raw, name in CELLS:
        assert has_own_check(raw) == (name == "gradcheck"), raw
    assert lines_above_gradcheck("   \n\n%%gradcheck\nx = 1\n") == 2
    assert lines_above_gradcheck("\n%%time\nx = 1\n") == 0
