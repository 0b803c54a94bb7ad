"""An error raised in a traced step reads exactly as without the check.

TensorFlow words an error raised while a ``tf.function`` traces as "in user code:" and the
frames that led to it, leaving its own files out; a graph execution error names the frames
that defined the failing op ("defined at"). The check's wrappers (its ``tape.gradient``
around TensorFlow's) must be left out the same way. Each program runs plainly and under the
check from the same line of this file, and the two error texts are compared whole; only the
serial number TensorFlow gives each traced function (``__inference_step_N``, counted per
process) is set aside.
"""

from __future__ import annotations

import contextlib
import re
import textwrap
import warnings
from pathlib import Path

import pytest

import tapemagic

pytestmark = pytest.mark.tf

PROGRAMS = {
    # raised while tracing: a shape error in an op, the user's own ValueError
    "shape": """
        w = tf.Variable(tf.ones((3, 1)), name="w")
        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(x, w))
            return tape.gradient(loss, [w])
        step(tf.ones((2, 4)))
        """,
    "value_error": """
        w = tf.Variable(tf.ones((3, 1)), name="w")
        def checked(x):
            if x.shape[-1] != 3:
                raise ValueError(f"expected 3 features, got {x.shape[-1]}")
            return x
        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(checked(x), w))
            return tape.gradient(loss, [w])
        step(tf.ones((2, 4)))
        """,
    # raised inside tape.gradient while tracing: a registered gradient that refuses, a second
    # gradient call on a tape that is not persistent
    "gradient_raises": """
        w = tf.Variable(tf.ones((4, 2)), name="w")
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                q, r = tf.linalg.qr(w, full_matrices=True)
                loss = tf.reduce_sum(q)
            return tape.gradient(loss, [w])
        step()
        """,
    "second_gradient": """
        w = tf.Variable(tf.ones((3, 1)), name="w")
        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(x, w))
            first = tape.gradient(loss, [w])
            return tape.gradient(loss, [w]), first
        step(tf.ones((2, 3)))
        """,
    # raised when the graph runs: an InvalidArgumentError and its "defined at" frames
    "invalid_argument": """
        table = tf.Variable(tf.ones((4, 2)), name="table")
        @tf.function
        def step(ids):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.gather(table, ids))
            return tape.gradient(loss, [table])
        step(tf.constant([0, 7]))
        """,
}


# raised in fit's train step: while tracing, and when the graph runs
FIT = """
    import keras
    class Model(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                pred = self(x, training=True)
                LOSS
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}
    inputs = keras.Input((4,))
    model = Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd")
    model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=1, verbose=0)
    """
FIT_LOSSES = {
    "fit_traced": ["if pred.shape[-1] != 2:",
                   "    raise ValueError('the head must have 2 outputs')",
                   "loss = tf.reduce_mean(tf.square(pred - y))"],
    "fit_run": ["loss = tf.reduce_mean(tf.square(pred - tf.reshape(y, (-1, 3))))"],
}
PROGRAMS.update({name: FIT.replace("LOSS", ("\n" + " " * 16).join(lines))
                 for name, lines in FIT_LOSSES.items()})


def _error_text(path: Path, checked: bool) -> str:
    code = compile(path.read_text(), str(path), "exec")
    block = tapemagic.gradcheck() if checked else contextlib.nullcontext()
    try:
        with warnings.catch_warnings(), block:
            warnings.simplefilter("ignore")
            exec(code, {"__name__": "__main__"})  # noqa: S102 - one line for both runs
    except Exception as error:  # noqa: BLE001 - the program's own error is what is compared
        return re.sub(r"(__inference_\w+?)_\d+\b", r"\1_N", f"{type(error).__name__}: {error}")
    raise AssertionError("the program did not raise")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_an_error_in_a_traced_step_reads_as_without_the_check(tmp_path: Path,
                                                              name: str) -> None:
    path = tmp_path / f"{name}.py"
    path.write_text("import numpy as np\nimport tensorflow as tf\n"
                    + textwrap.dedent(PROGRAMS[name]))
    # from one line, so that the frames of a "defined at" stack are the same
    plain, checked = (_error_text(path, checked) for checked in (False, True))
    assert checked == plain


def test_the_traceback_filter_is_as_before_after_the_check() -> None:
    from tapemagic.tracing import _tf_private as tfp

    before = tfp.excluded_traceback_paths()
    with tapemagic.gradcheck():
        import tensorflow as tf

        tf.constant(1.0)
        inside = tfp.excluded_traceback_paths()
    assert len(inside) == len(before) + 1
    assert tfp.excluded_traceback_paths() == before
