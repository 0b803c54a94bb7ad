"""tapemagic: find where and why TensorFlow gradients are severed, and how to fix it.

``%load_ext tapemagic`` registers ``%%gradcheck``; ``with tapemagic.gradcheck() as check:``
is the same engine for scripts and tests; ``python -m tapemagic run script.py`` for terminals
and CI; ``tapemagic.keras.GradientCheck()`` is a Keras callback for ``fit``. Importing this
package does not import TensorFlow; tracing does, when a check starts (and ``tapemagic.keras``,
loaded on first use).
"""

from __future__ import annotations

from typing import Any

from tapemagic._version import __version__

__all__ = [
    "Check",
    "GradcheckError",
    "Report",
    "__version__",
    "assert_gradients_connected",
    "gradcheck",
    "load_ipython_extension",
    "unload_ipython_extension",
]

from tapemagic.api import Check, GradcheckError, gradcheck  # noqa: E402
from tapemagic.report.model import Report  # noqa: E402
from tapemagic.testing import assert_gradients_connected  # noqa: E402


def __getattr__(name: str) -> Any:
    """Load ``tapemagic.keras`` on first use: it imports Keras, and so TensorFlow."""
    if name == "keras":
        import importlib

        return importlib.import_module("tapemagic.keras")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_ipython_extension(ipython: Any) -> None:
    """Register ``%%gradcheck`` (``%load_ext tapemagic``); TensorFlow is not imported here."""
    from tapemagic.magic import GradcheckMagics, lines_above_gradcheck

    if hasattr(ipython.magics_manager.registry.get("GradcheckMagics"), "tapemagic_hooks"):
        # already registered by the notebook runner (tapemagic.cli.kernel), which leaves the
        # extension off IPython's loaded list so that the notebook's own `%load_ext tapemagic`
        # runs quietly, as in a plain kernel; registering twice would run every hook twice
        return
    magics = GradcheckMagics(ipython)
    ipython.register_magics(magics)

    def remember_cell_id(info: Any) -> None:
        # ipykernel passes the notebook cell's id; reports carry it so the lab extension can
        # find the cell even after the notebook was reordered.
        magics.current_cell_id = getattr(info, "cell_id", None)
        if getattr(info, "store_history", False):  # a cell the user ran, not a magic's body
            magics.lines_above = lines_above_gradcheck(getattr(info, "raw_cell", "") or "")

    def remember_count(result: Any) -> None:
        # The result knows the cell's real number (IPython 9 bumps execution_count before the
        # cell runs, IPython 8 after it, so the counter itself cannot be trusted mid-cell).
        cell_id = getattr(getattr(result, "info", None), "cell_id", None)
        count = getattr(result, "execution_count", None)
        if cell_id and count is not None:
            magics.cell_ids[count] = cell_id

    ipython.events.register("pre_run_cell", remember_cell_id)
    ipython.events.register("post_run_cell", remember_count)
    magics.tapemagic_hooks = (remember_cell_id, remember_count)  # type: ignore[attr-defined]
    # auto mode (`%gradcheck on`, `c.Gradcheck.auto = True`): its hooks run after the two
    # above, so the cell id is known; registered as a configurable for `%config Gradcheck`
    from tapemagic.auto import Gradcheck

    magics.auto_mode = Gradcheck(ipython, magics)  # type: ignore[attr-defined]
    ipython.configurables.append(magics.auto_mode)  # type: ignore[attr-defined]


def unload_ipython_extension(ipython: Any) -> None:
    """Remove the hooks and the input transformer added by :func:`load_ipython_extension`."""
    for magics in list(ipython.magics_manager.registry.values()):
        remove = getattr(magics, "remove_transformer", None)
        if callable(remove) and hasattr(magics, "tapemagic_hooks"):
            remove()  # the input transformer that lets a %%gradcheck body use `await`
        auto = getattr(magics, "auto_mode", None)
        if auto is not None:
            auto.close()
            if auto in ipython.configurables:
                ipython.configurables.remove(auto)
        hooks = getattr(magics, "tapemagic_hooks", ())
        for event, hook in zip(("pre_run_cell", "post_run_cell"), hooks, strict=False):
            try:
                ipython.events.unregister(event, hook)
            except ValueError:
                pass


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Tell ``jupyter labextension develop`` where the prebuilt extension lives."""
    return [{"src": "labextension", "dest": "tapemagic"}]
