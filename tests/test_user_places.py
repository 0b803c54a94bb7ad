"""Every place a report names is in the user's code (issue 33, 5.).

A report's places (findings, related locations, gradient calls, tapes, graph nodes, notes) are
lines the user can open: never autograph's generated copy of a converted function
(``/tmp/__autograph_generated_file….py``) and never a TensorFlow, Keras or standard-library
file. ``tapemagic.user_code.misplaced`` states the invariant over a report's JSON; every report
the tests build through ``checked.run_program`` or ``cli_runs.finish_run`` is held to it, and
``bench/accuracy.py`` fails a corpus program whose report breaks it. The source index is the
gate (``SourceIndex.location``): a raw place outside the user's code has no location.

The programs model a ``tf.custom_gradient`` written inside the ``@tf.function`` step
(https://github.com/tensorflow/tensorflow/issues/50170 defines one inside a step) and a
comparison in a converted step: the graph run named the custom gradient's definition in
autograph's temp file, and the comparison by its op type with no columns.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from checked import run_program

from tapemagic.locations import SourceIndex
from tapemagic.trace import RawLocation
from tapemagic.user_code import GENERATED_MARK, is_user_file, misplaced


def _raw(file: str, line: int = 3) -> RawLocation:
    return RawLocation(file, line, line, 0, 4, "step")


def test_the_source_index_gives_no_location_outside_the_users_code(tmp_path: Path) -> None:
    user = tmp_path / "train.py"
    user.write_text("import tensorflow as tf\n\nx = 1\n")
    library = str(Path(sysconfig.get_paths()["purelib"]) / "keras" / "src" / "layers" / "x.py")
    generated = f"/tmp/{GENERATED_MARK}k2x9.py"
    index = SourceIndex()
    assert index.location(_raw(generated)) is None
    assert index.location(_raw(library)) is None
    assert index.location(_raw("<frozen runpy>")) is None
    found = index.location(_raw(str(user)))
    assert found is not None and found.file == str(user) and found.line == 3
    cell = index.location(_raw("<ipython-input-3-abc>"))
    assert cell is not None  # a pseudo-file is code the user typed
    assert is_user_file(str(user)) and not is_user_file(str(Path(__file__).parent.parent
                                                             / "tapemagic" / "frames.py"))


def test_misplaced_names_each_place_outside_the_users_code() -> None:
    payload = {
        "findings": [{"location": {"file": "/home/u/train.py", "line": 4},
                      "related": [{"file": f"/tmp/{GENERATED_MARK}ab.py", "line": 18}]}],
        "graph": {"nodes": [{"id": "a", "file": None, "line": None},
                            {"id": "b", "file": "<frozen runpy>", "line": 2}]},
        "notes": [f"The gradient call at {GENERATED_MARK}ab.py:18 ran on each of 2 replicas"],
        "exception": {"message": f'File "/tmp/{GENERATED_MARK}ab.py", line 9, in tf__step'},
    }
    wrong = misplaced(payload)
    assert len(wrong) == 3, wrong  # the exception's text is TensorFlow's own: left as raised
    assert wrong[0].startswith("report.findings[0].related[0]")
    assert wrong[1].startswith("report.graph.nodes[1]")
    assert wrong[2].startswith("report.notes[0]")
    assert misplaced({"findings": [{"location": {"file": "<ipython-input-1>", "line": 1}}]}) == []


CUSTOM_IN_STEP = """\
import tensorflow as tf

w = tf.Variable(tf.ones((3, 1)), name="w")
v = tf.Variable(tf.ones((3, 1)), name="v")


@tf.function
def step(x):
    @tf.custom_gradient
    def passthrough(t):
        def grad(dy):
            return None
        return tf.identity(t), grad

    with tf.GradientTape() as tape:
        picked = tf.cast(tf.matmul(x, v) > 0.5, tf.float32)
        loss = tf.reduce_sum(passthrough(tf.matmul(x, w))) + tf.reduce_sum(picked)
    return tape.gradient(loss, [w, v])


step(tf.ones((2, 3)))
"""


@pytest.mark.tf
def test_graph_places_are_the_eager_places(tmp_path: Path) -> None:
    """The graph run names each cause where the eager run does: the user's line and columns."""
    places = {}
    for eager in (False, True):
        done = run_program(tmp_path, CUSTOM_IN_STEP, name=f"step_{eager}.py", force_eager=eager)
        places[eager] = sorted(
            (f.rule, f.location.line, f.location.col, f.location.end_col, tuple(f.variables))
            for f in done.report.findings if f.location is not None)
        assert len(places[eager]) == len(done.report.findings)  # every finding is placed
    source = CUSTOM_IN_STEP.splitlines()
    grad_line = source.index("            return None") + 1
    compare_line = next(i for i, text in enumerate(source, 1) if "> 0.5" in text)
    compare_col = source[compare_line - 1].index("tf.matmul(x, v) > 0.5")
    assert places[True] == [
        ("TM201", compare_line, compare_col, compare_col + len("tf.matmul(x, v) > 0.5"), ("v",)),
        ("TM203", grad_line, 12, 23, ("w",))], places[True]
    assert places[False] == places[True]
