"""The check_source contract the JupyterLab half relies on (TF-free: nothing is run)."""

from __future__ import annotations

import json
import subprocess
import sys

from tapemagic.lint import Hint, check_source

CELL = """\
%%gradcheck
import tensorflow as tf
%time x = 1
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
!echo shell
with tf.GradientTape() as tape:
    ŷ = model(tf.ones((2, 3)))  # a non-ASCII name: columns are characters
    loss = tf.reduce_sum(ŷ.numpy())
grads = tape.gradient(loss, model.trainable_variables)
"""


def test_magics_are_blanked_and_lines_kept() -> None:
    hints = check_source(CELL)
    assert [(h.code, h.line) for h in hints] == [("TM301", 8)]
    line = CELL.split("\n")[7]
    hint = hints[0]
    assert line[hint.col:hint.end_col] == "ŷ.numpy()"
    assert (hint.end_line, hint.path, hint.severity) == (8, "<cell>", "hint")


def test_to_json_has_the_contract_keys() -> None:
    hint = check_source(CELL, "work/nb.ipynb")[0]
    data = hint.to_json()
    assert set(data) == {"path", "code", "cause", "name", "severity", "message", "line", "col",
                         "end_line", "end_col", "fix"}
    assert data["path"] == "work/nb.ipynb"
    assert (data["cause"], data["name"], data["severity"]) == (
        "host-round-trip", "host-round-trip", "hint")
    assert " may " in data["message"] and "`.numpy()`" in data["message"]
    fix = data["fix"]
    assert set(fix) == {"title", "applicability", "edits"}
    assert fix["applicability"] == "unsafe"
    assert fix["edits"] == [{"line": 8, "col": 25, "end_line": 8, "end_col": 34, "text": "ŷ"}]
    json.dumps(data)  # plain JSON


def test_syntax_error_gives_no_hints() -> None:
    assert check_source("with tf.GradientTape() as tape:\n    loss = (\n") == []
    assert check_source("def f(:\n") == []
    assert check_source("") == []


def test_non_python_cell_magic_is_not_linted() -> None:
    assert check_source("%%bash\nfloat(x.numpy())\n") == []


def test_hints_are_sorted_and_typed() -> None:
    hints = check_source(CELL + CELL.replace("%%gradcheck", ""))
    assert all(isinstance(h, Hint) for h in hints)
    assert [h.line for h in hints] == sorted(h.line for h in hints)


def test_checker_imports_no_tensorflow() -> None:
    code = ("import sys\nfrom tapemagic.lint import check_source\n"
            f"assert check_source({CELL!r})\n"
            # the server extension needs jupyter_server, which a server has (not every stack)
            "import importlib.util\n"
            "if importlib.util.find_spec('jupyter_server'):\n"
            "    import tapemagic.serverext\n"
            "assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
