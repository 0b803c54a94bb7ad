"""Which source files are the user's: the one test every place a report shows must pass.

Stdlib only, imports nothing of tapemagic's. A place in a report is always a line the user
can open and change: a notebook cell, a script, the user's own module. Never autograph's
generated copy of a converted function (``/tmp/__autograph_generated_file….py``, written when a
``tf.function`` is traced and removed with the process) and never a file of TensorFlow, Keras,
the standard library, site-packages or tapemagic itself. :mod:`tapemagic.frames` maps frames
to the user's code while the check runs; :func:`is_user_file` is the last gate, applied by the
source index to every location a report is built from (``locations.SourceIndex.location``),
and :func:`misplaced` checks a finished report (the tests run it on every report they build).
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from collections.abc import Iterator
from typing import Any

__all__ = ["GENERATED_MARK", "LIBRARY_FILES", "LIBRARY_ROOTS", "is_user_file", "library_roots",
           "misplaced"]

#: Autograph (tf.function) runs converted copies of the user's functions from generated files.
GENERATED_MARK = "__autograph_generated_file"
#: Files :mod:`tapemagic.frames` found to be library code by their module's package (an
#: editable install of TensorFlow or Keras lies under no library root).
LIBRARY_FILES: set[str] = set()


def library_roots() -> tuple[str, ...]:
    """Return the directories (with a trailing separator) whose files are library code."""
    roots = {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
    for getter in (site.getsitepackages, lambda: [site.getusersitepackages()]):
        try:
            roots.update(getter())
        except Exception:  # noqa: BLE001 - site may be stubbed in embedded interpreters
            pass
    roots.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots if r)


#: the directories whose files are library code (with a trailing separator)
LIBRARY_ROOTS = library_roots()
#: tapemagic's own package: its frames are never the user's
_OWN = os.path.join(os.path.dirname(os.path.realpath(__file__)), "")
_known: dict[str, bool] = {}


def is_user_file(file: str | None) -> bool:
    """Return True when ``file`` (a code object's ``co_filename``) is the user's code.

    A pseudo-file (``<ipython-input-…>``, ``<timed exec>``, ``<string>``) is the user's, as
    IPython and ``exec`` name the code the user typed; ``<frozen …>`` is the interpreter's.
    """
    if not file or file in LIBRARY_FILES:
        return False
    known = _known.get(file)
    if known is None:
        if GENERATED_MARK in file or file.startswith("<frozen"):
            known = False
        elif file.startswith("<"):
            known = True
        else:
            real = os.path.realpath(file)
            known = not real.startswith(LIBRARY_ROOTS) and not real.startswith(_OWN)
        _known[file] = known
    return known


def misplaced(payload: dict[str, Any]) -> list[str]:
    """Return what in a report's JSON points outside the user's code (``[]`` when nothing).

    Every place (a finding's location, related locations, a gradient call's, a tape's, a
    graph node's: any object with a ``file`` and a ``line``) must be in a user file, and no
    text of the report (notes, messages, labels) may name a generated file.
    """
    found = [f"{path}: {node['file']}" for path, node in _places(payload, "report")
             if not is_user_file(str(node["file"]))]
    found += [f"{path}: {text[:120]}" for path, text in _texts(payload, "report")
              if GENERATED_MARK in text and not path.startswith("report.exception")]
    return found


def _places(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("file") is not None and "line" in node:
            yield path, node
        for key, value in node.items():
            yield from _places(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, f"{path}[{index}]")


def _texts(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key != "file":  # a place's file is checked as a place
                yield from _texts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _texts(value, f"{path}[{index}]")
