"""ARCHITECTURE.md names every package and module of tapemagic, and nothing that is gone.

A package is a folder of ``tapemagic/`` with an ``__init__.py``; the map must name it as
``tapemagic/<name>/``. Every top-level module must be named too (as ``name.py``), and every
``tapemagic/...`` path the map names must exist, so a rename or a removal fails here until the
map says it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "ARCHITECTURE.md"
PATH = re.compile(r"`(tapemagic/[\w/.]*)`")


def named_paths(text: str) -> set[str]:
    return set(PATH.findall(text))


def packages() -> set[str]:
    return {f"tapemagic/{p.parent.relative_to(ROOT / 'tapemagic')}/"
            for p in (ROOT / "tapemagic").rglob("__init__.py") if p.parent != ROOT / "tapemagic"}


def test_every_package_is_named_in_the_map() -> None:
    named = named_paths(MAP.read_text(encoding="utf-8"))
    missing = sorted(packages() - named)
    assert not missing, f"ARCHITECTURE.md does not describe these packages: {missing}"


def test_every_top_level_module_is_named_in_the_map() -> None:
    text = MAP.read_text(encoding="utf-8")
    missing = sorted(p.name for p in (ROOT / "tapemagic").glob("*.py")
                     if not re.search(rf"`{re.escape(p.name)}`|`tapemagic/{re.escape(p.name)}`",
                                      text))
    assert not missing, f"ARCHITECTURE.md does not name these modules: {missing}"


def test_every_path_the_map_names_exists() -> None:
    gone = sorted(p for p in named_paths(MAP.read_text(encoding="utf-8"))
                  if not (ROOT / p).exists())
    assert not gone, f"ARCHITECTURE.md names paths that no longer exist: {gone}"


def test_the_checks_see_a_missing_and_a_stale_name() -> None:
    # the map's own checks, on a made-up map: one package left out, one path that is gone
    text = "`tapemagic/tracing/` and `tapemagic/no_such_package/`"
    assert "tapemagic/tracing/" in named_paths(text)
    assert "tapemagic/report/" in packages() - named_paths(text)
    assert not (ROOT / "tapemagic/no_such_package/").exists()


def test_every_module_of_every_package_is_named_in_the_map() -> None:
    # a module's file name in the map (`probes.py`); the rule modules are named by their
    # pattern (`tmNNN_<name>.py`)
    text = MAP.read_text(encoding="utf-8")
    missing = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tapemagic").rglob("*.py")
                     if p.name != "__init__.py" and p.parent != ROOT / "tapemagic"
                     and not re.match(r"tm\d{3}_", p.name) and p.name not in text)
    assert not missing, f"ARCHITECTURE.md does not name these modules: {missing}"
