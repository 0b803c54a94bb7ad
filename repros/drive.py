"""Run a repro file plain, under gradcheck in graph mode and forced eager; print what differs.

usage: PYTHONPATH=$PWD:$PWD/tests python repros/drive.py repros/FILE.py [...]
Each repro file is a plain script body; tests/test_graph_mode.py's SETUP is prepended.
"""
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_graph_mode import SETUP, run  # noqa: E402


def _text(loc):
    import linecache
    return linecache.getline(loc.file, loc.line).strip() if loc else ""


def show(label, r):
    print(f"  [{label}] error={type(r.error).__name__ if r.error else None}")
    if r.report is None:
        return
    for f in r.report.findings:
        loc = f"{f.location.line}:{f.location.col}" if f.location else "-"
        print(f"    {f.rule} {f.severity} {Path(f.location.file).name if f.location else None} line={loc} primary={f.primary} vars={list(f.variables)}"
              f" api={f.api} :: {_text(f.location)}")
    e = r.report.exception
    if e is not None:
        print(f"    exception {e.type} at {e.location.line if e.location else None} :: {_text(e.location)}")


for name in sys.argv[1:]:
    src = Path(name)
    full = Path("/tmp/breaker5_" + src.name)
    full.write_text(SETUP + src.read_text())
    print(f"== {src.name}")
    plain = run(full, force_eager=False, traced=False)
    print(f"  [plain] error={type(plain.error).__name__ if plain.error else None}: "
          f"{str(plain.error).splitlines()[-1][:100] if plain.error else ''}")
    for label, eager in (("graph", False), ("eager", True)):
        try:
            show(label, run(full, force_eager=eager))
        except Exception:
            traceback.print_exc()
