"""Build the seed notebooks ``demo/seed*.ipynb`` and execute them, so they are kept with outputs.

Each notebook tells one real user's bug: an intro, a setup cell, the broken cell under
``%%gradcheck rep``, what the report says, the fixed cell under ``%%gradcheck fixed`` (a clean
report), and a cell that asserts both. The setup and broken cells are cut out of
``demo/<name>.py`` (its code after the docstring, split at the first line that starts with the
seed's ``split`` marker), so the notebook always runs the same code as the script; line numbers
quoted in the explanation are looked up in the broken cell.

Run from the repository root:

    .venv/bin/python demo/build_notebooks.py               # write and execute all three
    .venv/bin/python demo/build_notebooks.py --no-execute  # write them without outputs
    .venv/bin/python demo/build_notebooks.py seed002_hypernetwork_assign

Execution uses nbclient with the ``python3`` kernel and ``allow_errors=False``: a cell may only
raise when it carries the ``raises-exception`` tag (the seed-004 broken cell does). The kernel
gets ``TF_CPP_MIN_LOG_LEVEL=2`` and ``TF_ENABLE_ONEDNN_OPTS=0`` so that TensorFlow's start-up log
lines do not clutter the committed outputs; the notebooks themselves set nothing.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import time
from pathlib import Path
from textwrap import dedent
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

DEMO = Path(__file__).resolve().parent
KERNEL = "python3"
RAISES = "raises-exception"
KERNEL_ENV = {"TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}


def _text(text: str) -> str:
    return dedent(text).strip("\n")


# --------------------------------------------------------------------------- seed 000

SEED000: dict[str, Any] = {
    "name": "seed000_numpy_in_loss",
    "split": "def energy(",
    "intro": _text("""
        # Seed 000: a custom loss that leaves TensorFlow for NumPy

        A user trained a small network on spin configurations with a custom "energy" loss and
        every gradient came back `None`. The loss converts the model output with `.numpy()` and
        continues in NumPy (`np.sqrt`, `np.dot`, `np.copy`, `np.real`), branches with Python
        `if`s on tensor comparisons, and the tape was opened with
        `watch_accessed_variables=False` and only watches the input.
        """),
    "lines": {"numpy": "out.numpy()", "tape": "tf.GradientTape(", "elif": "elif out[k, 0]"},
    "explain": _text("""
        ## What the report says

        All four weights are **severed**. Two *primary* findings each cut every weight on its
        own, so both must go:

        * **TM301 host-round-trip** (line {numpy}): `out.numpy()` turns the model output into
          a NumPy array. Everything after it (`np.dot`, `np.copy`, the division, the loop) is
          host arithmetic the tape never sees, and `tf.constant(...)` at the end makes a
          brand-new tensor with no history. The quick fix replaces `out.numpy()` by `out`; the
          NumPy calls around it must become `tf.*` ops too.
        * **TM101 tape-not-watching** (line {tape}): with `watch_accessed_variables=False` the
          tape only records what `tape.watch` names, here `configs` and not the weights. Even a
          pure-TensorFlow loss would give `None` under this tape.

        The *secondary* **TM303 python-control-flow** (line {elif}) is the cut met next: the
        Python `elif out[k, 0] != 0` calls `bool()` on a value computed from the weights; the
        tape records which branch ran, not the comparison. The `if` on
        `config == configs[0]` is not reported: it compares inputs only.

        ## The fix

        Keep the whole loss in TensorFlow (`tf.sqrt`, `tf.tensordot`, `tf.where` masks for the
        two branches, `tf.reduce_sum` for the loop) and use a default tape.
        """),
    "fixed": _text("""
        %%gradcheck fixed
        def energy(configs, out):
            psi = out[:, 0]                                      # stays a tensor: no .numpy()
            norm = tf.sqrt(tf.tensordot(psi, psi, axes=1))
            amp = psi / norm
            same = tf.reduce_all(configs == configs[0], axis=1)  # the `if`, as a mask
            weight = tf.where(same, 1.0, tf.where(psi != 0, 0.5, 0.0))  # and the `elif`
            return tf.reduce_sum(weight * amp ** 2) / nsamples   # the loop, as a sum


        with tf.GradientTape() as tape:  # default tape: watches every trainable variable
            out = model(configs)
            loss = energy(configs, out)
        gradients = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(gradients, model.trainable_weights))
        print("gradient norms:", [round(float(tf.norm(g)), 4) for g in gradients])
        """),
    "check": _text("""
        # What the engine reported, and that the fix is clean.
        print("broken:", rep.codes, "| fixed:", fixed.codes)
        assert set(rep.codes) == {"TM301", "TM101", "TM303"}, rep.codes
        assert {f.rule for f in rep.findings if f.primary} == {"TM301", "TM101"}, rep.codes
        assert fixed.codes == [], fixed.codes
        verdicts = [s.verdict for call in fixed.gradient_calls for s in call.sources]
        assert len(verdicts) == 4 and set(verdicts) == {"connected"}, verdicts
        """),
}

# --------------------------------------------------------------------------- seed 002

SEED002: dict[str, Any] = {
    "name": "seed002_hypernetwork_assign",
    "split": "with tf.GradientTape(",
    "intro": _text("""
        # Seed 002: a hypernetwork that writes its weights with `assign`

        NET1 predicts the weights of NET2. The user copied the prediction into NET2's
        variables with `Variable.assign` inside the tape, ran NET2 and asked for NET1's
        gradients with `unconnected_gradients=ZERO`: they were all zero, so NET1 never learned.
        """),
    "lines": {"kernel": "net2_weights[0].assign(", "bias": "net2_weights[1].assign("},
    "explain": _text("""
        ## What the report says

        Both of NET1's weights are **severed**: TensorFlow returned zeros only because the call
        asked for `UnconnectedGradients.ZERO`; without it they would be `None`. There are two
        **TM402 variable-assign** findings, one per `assign` (lines {kernel} and {bias}): an
        assignment is a state change, the tape records no op that maps the assigned value to
        the variable, so `net2(some_input)` reads NET2's kernel and bias as fresh leaves with
        no link to `pred`. The path drawn in the report stops at the `✂ Variable.assign` step.

        ## The fix

        Do not store the predicted weights in variables: run NET2's forward pass functionally
        on the predicted tensors. NET2 is a single `Dense(2)` without activation, so its forward
        pass is `tf.matmul(some_input, kernel) + bias`.
        """),
    "fixed": _text("""
        %%gradcheck fixed
        with tf.GradientTape() as tape:
            pred = net1(x)[0]
            kernel = tf.reshape(pred[:8], (4, 2))     # NET2's weights as tensors, not variables
            bias = pred[8:10]
            u = tf.matmul(some_input, kernel) + bias  # NET2's forward pass (Dense, no activation)
            loss = tf.reduce_sum(tf.abs(u))
        gradients = tape.gradient(loss, net1.trainable_variables)
        print("gradient norms:", [round(float(tf.norm(g)), 4) for g in gradients])
        """),
    "check": _text("""
        # What the engine reported, and that the fix is clean.
        print("broken:", rep.codes, "| fixed:", fixed.codes)
        assert rep.codes == ["TM402", "TM402"], rep.codes  # one per assign
        assert fixed.codes == [], fixed.codes
        verdicts = [s.verdict for call in fixed.gradient_calls for s in call.sources]
        assert len(verdicts) == 2 and set(verdicts) == {"connected"}, verdicts
        """),
}

# --------------------------------------------------------------------------- seed 004

SEED004: dict[str, Any] = {
    "name": "seed004_fit_argsort_sets",
    "split": "def top10_loss(",
    "broken_raises": True,
    "eager": True,
    "intro": _text("""
        # Seed 004: `model.fit` with a top-10 overlap loss

        A user wanted to reward the overlap between the 10 highest predicted classes and the 10
        highest true ones, and wrote the loss with `tf.keras.backend.eval`, `tf.argsort` and
        `tf.sets.intersection`. `model.fit` dies with "No gradients provided for any variable".
        """),
    "lines": {"eval": "tf.keras.backend.eval(", "argsort": "top_pred = tf.argsort(",
              "inter": "tf.sets.intersection(", "size": "tf.sets.size("},
    "explain": _text("""
        ## What the report says

        The cell raised, as it does without tapemagic: `fit` traces its train step as a graph,
        and `tf.keras.backend.eval` cannot read a value from a symbolic tensor
        (`AttributeError: 'SymbolicTensor' object has no attribute 'numpy'`). The report is
        displayed before the traceback; tapemagic analysed the graph TensorFlow traced, as the
        user wrote it. All four weights are **severed**:

        * **TM301 host-round-trip**, the *primary* finding (line {eval}):
          `tf.keras.backend.eval(bt)` copies the softmax to a NumPy array. It is the first cut
          on the path, so it is the one to fix first.
        * **TM202 integer-dtype** at line {argsort}: `tf.argsort` returns `int32` indices.
        * **TM201 non-differentiable-op** at lines {inter} and {size}: the `tf.sets` ops have no
          registered gradient.

        Tracing stopped at the `eval` line, so TensorFlow never traced the lines after it;
        tapemagic traced them once in a scratch graph that never runs, with the softmax
        standing in for the NumPy array, to find the cuts you would meet next (the report's
        note says so). The next cell runs the same code with `%%gradcheck --eager`: fit's train
        step then runs eagerly, Keras raises "No gradients provided for any variable" instead,
        and the report names the same cuts.

        Removing `eval` alone would not help: the cuts `--eager` shows are the ones met next.
        Counting common indices is a step function of the scores; it has no useful gradient.

        ## The fix

        Replace the count by a differentiable surrogate: the softmax probability mass that
        the model puts on the 10 true top classes (a soft top-k overlap). The true top-10 mask
        comes from `y_true` alone, which does not depend on the weights, so finding it with
        `tf.math.top_k` cuts nothing.
        """),
    "fixed": _text("""
        %%gradcheck fixed
        def soft_top10_loss(y_true, y_pred):
            probs = tf.nn.softmax(y_pred)
            tenth = tf.math.top_k(y_true, k=10).values[:, -1:]    # 10th largest true score
            true_top10 = tf.cast(y_true >= tenth, probs.dtype)    # mask of the true top 10
            overlap = tf.reduce_sum(probs * true_top10, axis=-1)  # soft overlap, in [0, 1]
            return 1.0 - overlap


        model.compile(optimizer="adam", loss=soft_top10_loss)
        history = model.fit(x_train, y_train, epochs=1, batch_size=16, verbose=0)
        print("loss:", [round(v, 4) for v in history.history["loss"]])
        """),
    "check": _text("""
        # What the engine reported, and that the fix is clean.
        print("broken:", rep.codes, "| eager:", eager.codes, "| fixed:", fixed.codes)
        assert set(rep.codes) == {"TM301", "TM202", "TM201"}, rep.codes
        assert [f.rule for f in rep.findings if f.primary] == ["TM301"], rep.codes
        assert rep.exception is not None and rep.exception.type == "AttributeError", rep.exception
        assert set(eager.codes) == {"TM301", "TM202", "TM201"}, eager.codes
        assert [f.rule for f in eager.findings if f.primary] == ["TM301"], eager.codes
        assert eager.exception is not None and eager.exception.type == "ValueError"
        assert fixed.codes == [], fixed.codes
        assert fixed.exception is None, fixed.exception
        verdicts = [s.verdict for call in fixed.gradient_calls for s in call.sources]
        assert len(verdicts) == 4 and set(verdicts) == {"connected"}, verdicts
        """),
}

SEEDS = [SEED000, SEED002, SEED004]


def script_cells(name: str, split: str) -> tuple[str, str]:
    """Return (setup, broken) cell sources cut out of ``demo/<name>.py``.

    The setup cell is ``%load_ext tapemagic`` plus the script's code (after its docstring) up to
    the first line that starts with ``split``; the broken cell is ``%%gradcheck rep`` plus the rest.
    """
    source = (DEMO / f"{name}.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    first = tree.body[0]
    skip = first.end_lineno if ast.get_docstring(tree) is not None else 0
    lines = source.splitlines()[skip:]
    cut = next((i for i, line in enumerate(lines) if line.startswith(split)), None)
    if cut is None:
        raise SystemExit(f"demo/{name}.py has no line starting with {split!r}")
    setup = "\n".join(lines[:cut]).strip("\n")
    broken = "\n".join(lines[cut:]).strip("\n")
    return f"%load_ext tapemagic\n\n{setup}", f"%%gradcheck rep\n{broken}"


def _cell_line(cell: str, needle: str) -> int:
    """Return the 1-based line of ``needle`` in a cell (line 1 is the magic line)."""
    for number, line in enumerate(cell.splitlines(), start=1):
        if needle in line:
            return number
    raise SystemExit(f"{needle!r} is not in the broken cell any more: update the explanation")


def build(seed: dict[str, Any]) -> nbformat.NotebookNode:
    """Return the notebook of one seed, without outputs, with stable cell ids."""
    name = seed["name"]
    prefix = name.split("_", 1)[0]
    setup, broken = script_cells(name, seed["split"])
    lines = {key: _cell_line(broken, needle) for key, needle in seed["lines"].items()}
    broken_meta = {"tags": [RAISES]} if seed.get("broken_raises") else {}
    cells = [
        new_markdown_cell(seed["intro"], id=f"{prefix}-intro"),
        new_code_cell(setup, id=f"{prefix}-setup"),
        new_code_cell(broken, id=f"{prefix}-broken", metadata=broken_meta),
        new_markdown_cell(seed["explain"].format(**lines), id=f"{prefix}-explain"),
    ]
    if seed.get("eager"):  # the same broken cell, its train step run eagerly: every cut
        eager = broken.replace("%%gradcheck rep", "%%gradcheck eager --eager", 1)
        cells.append(new_code_cell(eager, id=f"{prefix}-eager", metadata=broken_meta))
    cells += [
        new_code_cell(seed["fixed"], id=f"{prefix}-fixed"),
        new_code_cell(seed["check"], id=f"{prefix}-check"),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {
        "name": KERNEL, "display_name": "Python 3 (ipykernel)", "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    return nb


def execute(nb: nbformat.NotebookNode, cwd: Path, timeout: int = 120) -> nbformat.NotebookNode:
    """Run ``nb`` in place with nbclient; only cells tagged ``raises-exception`` may raise."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name=KERNEL, allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(cwd)}})
    client.execute(env={**os.environ, **KERNEL_ENV})
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", help="seed notebooks to build (default: all)")
    parser.add_argument("--no-execute", action="store_true", help="write without outputs")
    args = parser.parse_args(argv)
    known = {seed["name"]: seed for seed in SEEDS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown seed(s): {', '.join(unknown)}; known: {', '.join(known)}")
    for name in args.names or list(known):
        nb = build(known[name])
        path = DEMO / f"{name}.ipynb"
        if not args.no_execute:
            start = time.perf_counter()
            execute(nb, DEMO)
            print(f"{path.name}: executed in {time.perf_counter() - start:.1f} s")
        nbformat.write(nb, path)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
