"""``python -m tapemagic.verify.replay PAYLOAD``: the child process of a notebook verification.

Reads the JSON payload :class:`tapemagic.verify.notebook.HistoryRunner` wrote (``cells``, the
last one the checked cell; ``out``; ``force_eager``; ``steps``; ``cwd``), runs the cells in a
kernel-less IPython shell, the last one under ``%%gradcheck``, and writes that cell's report
as JSON to ``out``. Output of the cells goes to this process's stdout, which the parent
captures and drops. Exit status 0 when a report was written.
"""

from __future__ import annotations

import json
import os
import sys

_NAME = "_tapemagic_verify_report"


def main(argv: list[str]) -> int:
    """Replay the payload named by ``argv[0]``; return the exit status."""
    with open(argv[0], encoding="utf-8") as handle:
        payload = json.load(handle)
    os.chdir(payload["cwd"])
    from tapemagic.tracing.seeding import seed_from_env

    seed_from_env(load=True)  # before the history makes its weights (the checked cell
    # seeds again)
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    cells: list[str] = payload["cells"]
    for source in cells[:-1]:
        shell.run_cell(source, store_history=True)
    if "gradcheck" not in shell.magics_manager.magics["cell"]:
        shell.run_line_magic("load_ext", "tapemagic")
    _magic, _, body = cells[-1].partition("\n")
    mode = "--eager" if payload["force_eager"] else "--graph-mode"
    shell.run_cell(f"%%gradcheck {_NAME} {mode} --steps {int(payload['steps'])}\n{body}",
                   store_history=True)
    report = shell.user_ns.get(_NAME)
    if report is None:
        print("tapemagic replay: the checked cell made no report", file=sys.stderr)
        return 1
    with open(payload["out"], "w", encoding="utf-8") as out:
        json.dump(report.to_json(), out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
