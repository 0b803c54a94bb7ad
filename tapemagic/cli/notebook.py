"""``python -m tapemagic run NOTEBOOK.ipynb``: every code cell, in order, in a real kernel, checked.

The notebook runs in a fresh kernel (the ``python3`` kernel, in the notebook's folder) driven
by nbclient, as ``jupyter nbconvert --execute`` runs it. Before the first cell, a silent
request (no ``In[N]``, no history) loads tapemagic in the kernel and installs
:mod:`tapemagic.cli.kernel`'s hooks, so each cell runs as ``%%gradcheck`` runs it and displays
its report. Then, as nbclient does, a cell that raises (and is not tagged
``raises-exception``) stops the run; the reports up to it, that cell's included, are written.
Positions: ``notebook.ipynb, cell N (In[K]), line L``, N counting every cell from 1 (markdown
too), K the cell's execution count and L the cell's own line (:mod:`tapemagic.report.places`).
Exit status: as for scripts (:data:`tapemagic.cli.EXIT_STATUS`); a cell that raised is the
script that raised (1).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
from typing import Any

from tapemagic.cli.outputs import Outputs, Unit

__all__ = ["KERNEL", "run_notebook"]

#: The kernel the notebook runs in: it must be able to import tapemagic (this environment's).
KERNEL = "python3"
_SETUP = ("from tapemagic.cli.kernel import install as _tapemagic_install\n"
          "_tapemagic_install(get_ipython(), force_eager={eager}, steps={steps})\n"
          "del _tapemagic_install\n")


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class KernelSetupError(RuntimeError):
    """The kernel could not load tapemagic (another environment's kernel, say)."""


async def _execute(client: Any, setup: str) -> None:
    from nbclient.util import ensure_async

    client.reset_execution_trackers()
    # nbclient shuts down only a kernel whose manager it made; ours (private IPC sockets) would
    # outlive the run and print "Parent appears to have exited" after the user's prompt
    async with client.async_setup_kernel(cleanup_kc=True):
        info = await client.async_wait_for_reply(await ensure_async(client.kc.kernel_info()))
        if info is not None and "language_info" in info["content"]:
            client.nb.metadata["language_info"] = info["content"]["language_info"]
        reply = await client.async_wait_for_reply(
            client.kc.execute(setup, silent=True, store_history=False))
        content = reply["content"] if reply is not None else {"status": "error"}
        if content.get("status") != "ok":
            raise KernelSetupError(f"{content.get('ename', 'no reply')}: "
                                   f"{content.get('evalue', '')}")
        for index, cell in enumerate(client.nb.cells):
            await client.async_execute_cell(cell, index,
                                            execution_count=client.code_cells_executed + 1)


def run_notebook(path: str, outputs: Outputs, output_path: str | None, steps: int,
                 force_eager: bool) -> int:
    """Run the notebook at ``path`` checked, write the outputs; return the exit status."""
    try:
        import ipykernel  # noqa: F401 - the kernel the notebook runs in
        import nbformat
        from nbclient import NotebookClient
    except ImportError as missing:
        print(f"tapemagic: running a notebook needs nbclient, nbformat and ipykernel "
              f"({missing.name} is not installed): pip install \"tapemagic[notebook]\"",
              file=sys.stderr)
        return 2
    try:
        nb = nbformat.read(path, as_version=4)
    except (OSError, ValueError, KeyError, TypeError) as error:  # nbformat's own errors too
        print(f"tapemagic: not a readable notebook: {path} ({error})", file=sys.stderr)
        return 2
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.TemporaryDirectory(prefix="tapemagic-kernel-") as sockets:
        client = NotebookClient(nb, km=_kernel_manager(sockets), timeout=None,
                                kernel_name=KERNEL, allow_errors=False,
                                resources={"metadata": {"path": folder}})
        failed, status = _run_client(client, force_eager, steps)
    if status == 2:
        return 2
    units = collect(nb, path)
    shown = [u for u in units if _worth_showing(u)]
    outputs.write(units, path, successful=not failed,
                  notebook=True, show=shown)
    if output_path:
        strip_empty_reports(nb)
        nbformat.write(nb, output_path)
    if status:
        return status
    return 1 if failed or any(u.report.has_errors for u in units) else 0


def _kernel_manager(sockets: str) -> Any:
    """Return the runner's own kernel manager, on POSIX over IPC sockets in a private folder.

    So the kernel has no TCP port to warn about on the run's stderr: ipykernel's "running over
    TCP without encryption" belongs to the runner, not to the user's code.
    """
    from jupyter_client.manager import AsyncKernelManager

    if os.name != "posix":
        return AsyncKernelManager(kernel_name=KERNEL)
    return AsyncKernelManager(kernel_name=KERNEL, transport="ipc",
                              ip=os.path.join(sockets, "kernel"))


def _run_client(client: Any, force_eager: bool, steps: int) -> tuple[bool, int]:
    """Execute the notebook; return (a cell failed, status: 130 interrupted, 2 no tapemagic)."""
    from nbclient.exceptions import CellExecutionError, DeadKernelError

    failed, status = False, 0
    try:
        asyncio.run(_execute(client, _SETUP.format(eager=bool(force_eager), steps=int(steps))))
    except KernelSetupError as error:
        print(f"tapemagic: the {KERNEL!r} kernel cannot load tapemagic ({error}); install "
              "tapemagic in that kernel's environment", file=sys.stderr)
        return True, 2
    except CellExecutionError as error:
        failed = True
        message = str(error).rstrip()
        if not sys.stderr.isatty():  # IPython colours the kernel's traceback; a log gets text
            message = _ANSI.sub("", message)
        print(message, file=sys.stderr)
    except DeadKernelError as error:
        failed = True
        print(f"tapemagic: the kernel died: {error}", file=sys.stderr)
    except KeyboardInterrupt:
        failed, status = True, 130
        print("KeyboardInterrupt", file=sys.stderr)
    return failed, status


def collect(nb: Any, path: str) -> list[Unit]:
    """Return one :class:`Unit` per code cell that produced a report, in notebook order.

    A cell's report is the one the run's hook displayed; in a cell that starts with
    ``%%gradcheck`` (left to that magic), the last report the magic displayed.
    """
    from tapemagic.cli.kernel import OUTPUT_TAG, has_own_check
    from tapemagic.report.mime import MIME_TYPE
    from tapemagic.report.model import Report
    from tapemagic.report.places import numbered

    counts = {cell.get("execution_count"): number
              for number, cell in enumerate(nb.cells, start=1)
              if cell.cell_type == "code" and cell.get("execution_count") is not None}
    units = []
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        own = has_own_check(cell.source)
        found = [o for o in cell.get("outputs", [])
                 if MIME_TYPE in o.get("data", {})
                 and bool(o.get("metadata", {}).get(OUTPUT_TAG)) != own]
        if found:
            # the kernel knows a cell's In[N]; the run knows its place in the file too
            report = numbered(Report.from_json(_plain(found[-1]["data"][MIME_TYPE])), counts)
            units.append(Unit(report, path, number, counts))
    return units


def _plain(value: Any) -> Any:
    """Return nbformat's NotebookNode tree as plain dicts and lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _worth_showing(unit: Unit) -> bool:
    """Return True when a cell's report says something: a gradient was checked or a cut found."""
    report = unit.report
    return bool(report.gradient_calls or report.findings)


def strip_empty_reports(nb: Any) -> None:
    """Drop the run's reports of cells that computed no gradient (nothing to show there)."""
    from tapemagic.cli.kernel import OUTPUT_TAG
    from tapemagic.report.mime import MIME_TYPE

    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        kept = []
        for output in cell.get("outputs", []):
            payload = output.get("data", {}).get(MIME_TYPE)
            if (payload is not None and output.get("metadata", {}).get(OUTPUT_TAG)
                    and not payload.get("gradient_calls") and not payload.get("findings")):
                continue
            kept.append(output)
        cell.outputs = kept
