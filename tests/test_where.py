"""The line the user must change: each kind of cut is reported where the fix goes.

Each program marks its expected line with ``# <-``; the test runs it under ``gradcheck`` from a
real file (so the source index reads it as a user's script) and checks the rule and the line.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf


def _run(run_checked: RunChecked, source: str) -> tuple[Report, int | None]:
    # some programs raise as the user's did
    report, marked = run_checked(source, catch=Exception)
    return report, marked[0] if marked else None


WHERE = {

    "a weight created but never read": ("TM104", """
        import tensorflow as tf
        w = tf.Variable(1.0, name="w")
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            loss = (w * x - 1.0) ** 2
        unused = tf.Variable(2.0, name="unused")  # <-
        g = tape.gradient(loss, [w, unused])
        """),
    "an integer tensor watched as the source": ("TM202", """
        import tensorflow as tf
        x = tf.constant(10)  # <-
        with tf.GradientTape() as g:
            g.watch(x)
            y = x * x
        grad = g.gradient(y, x)
        """),
    "an unnamed weight never read, next to another unnamed one": ("TM104", """
        import tensorflow as tf
        x = tf.Variable(2.0)  # <-
        y = tf.Variable(3.0)
        with tf.GradientTape() as tape:
            z = y * y
        g = tape.gradient(z, x)
        """),
    "a variable made again in __call__": ("TM111", """
        import tensorflow as tf
        class Scale(tf.Module):
            def __init__(self):
                self.w = tf.Variable(1.0, name="w")
            def __call__(self, x):
                self.w = tf.Variable(1.0, name="w")  # <-
                return self.w * x
        m = Scale()
        params = [m.w]
        with tf.GradientTape() as tape:
            loss = m(tf.constant(2.0)) ** 2
        g = tape.gradient(loss, params)
        """),
    "a loss helper called after the with block": ("TM103", """
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        def loss_fn(p):
            return tf.reduce_mean((p - 2.0) ** 2)
        def step():
            with tf.GradientTape() as tape:
                pred = w * 3.0
            loss = loss_fn(pred)  # <-
            return tape.gradient(loss, [w])
        step()
        """),
    "keras.ops.convert_to_numpy in the loss": ("TM301", """
        import numpy as np
        import tensorflow as tf
        import keras
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, name="o")])
        x = tf.ones((5, 3))
        with tf.GradientTape() as tape:
            p = keras.ops.convert_to_numpy(model(x))  # <-
            loss = tf.reduce_mean(tf.constant(np.square(p)))
        g = tape.gradient(loss, model.trainable_weights)
        """),
    "model.weights with BatchNorm statistics": ("TM107", """
        import tensorflow as tf
        import keras
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d"),
                                  keras.layers.BatchNormalization(name="bn"),
                                  keras.layers.Dense(1, name="o")])
        x = tf.random.normal((6, 3), seed=1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x, training=True) ** 2)
        g = tape.gradient(loss, model.weights)  # <-
        """),
    "an integer variable among the sources": ("TM202", """
        import tensorflow as tf
        w = tf.Variable(1.0, name="w")
        step = tf.Variable(3, name="step")  # <-
        with tf.GradientTape() as tape:
            loss = w * tf.cast(step, tf.float32)
        g = tape.gradient(loss, [w, step])
        """),
    "sources read before the model was built": ("TM109", """
        import tensorflow as tf
        import keras
        model = keras.Sequential([keras.layers.Dense(1, name="o")])
        params = model.trainable_variables  # <-
        x = tf.ones((5, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        g = tape.gradient(loss, params)
        """),
    "a tape.watch of a Keras variable that raised": ("TM108", """
        import tensorflow as tf
        import keras
        layer = keras.layers.Dense(1, name="d")
        layer.build((None, 2))
        x = tf.ones((3, 2))
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            try:
                tape.watch(layer.kernel)  # <-
            except ValueError:
                pass
            loss = tf.reduce_sum(layer(x))
        g = tape.gradient(loss, layer.trainable_weights)
        """),
    "tf.unique raises LookupError in tape.gradient": ("TM201", """
        import tensorflow as tf
        v = tf.Variable([1.0, 2.0, 2.0], name="v")
        with tf.GradientTape() as tape:
            u, _ = tf.unique(v * 2.0)  # <-
            loss = tf.reduce_sum(u)
        g = tape.gradient(loss, v)
        """),
    "a custom gradient that returns None for its variable": ("TM203", """
        import tensorflow as tf
        w = tf.Variable(2.0, name="w")
        @tf.custom_gradient
        def scaled(x):
            def grad(dy, variables=None):
                return dy * w, [None for _ in variables]  # <-
            return x * w, grad
        with tf.GradientTape() as tape:
            loss = scaled(tf.constant(3.0))
        g = tape.gradient(loss, [w])
        """),
    "a tensor watched after the op that used it": ("TM102", """
        import tensorflow as tf
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(x * x)
            tape.watch(x)  # <-
        g = tape.gradient(y, x)
        """),
    "a dead ReLU layer": ("TM501", """
        import tensorflow as tf
        import keras
        model = keras.Sequential([
            keras.Input((2,)),
            keras.layers.Dense(3, activation="relu", name="h",
                               bias_initializer=keras.initializers.Constant(-100.0)),  # <-
            keras.layers.Dense(1, name="o")])
        x = tf.ones((4, 2))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - 1.0) ** 2)
        g = tape.gradient(loss, model.trainable_weights)
        """),
    "a py_function whose body calls .numpy()": ("TM304", """
        import numpy as np
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        def body(t):
            return tf.constant(np.tanh(t.numpy()))  # <-
        with tf.GradientTape() as tape:
            y = tf.py_function(body, [w * 2.0], tf.float32)
            loss = tf.reduce_sum(y)
        g = tape.gradient(loss, w)
        """),
}


@pytest.mark.parametrize("name", sorted(WHERE))
def test_the_finding_is_on_the_line_to_change(run_checked: RunChecked, name: str) -> None:
    rule, source = WHERE[name]
    report, line = _run(run_checked, source)
    assert report.codes == [rule], [f"{f.rule}@{f.location and f.location.line}: {f.message}"
                                    for f in report.findings]
    finding = report.findings[0]
    assert finding.location is not None and finding.location.line == line
    assert finding.primary and finding.variables
    assert not report.headline.startswith(("All ", "The weight gets"))


def test_a_prediction_left_out_of_the_loss_is_one_finding_where_another_value_is_used(
        run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf
        w = tf.Variable(1.0, name="w")
        b = tf.Variable(2.0, name="b")
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            pred = w * x
            other = b * x
            loss = (pred - 1.0) ** 2
        g = tape.gradient(loss, [w, b])
        """)
    # one cause, one finding: at the line that used another value in its place, saying
    # which line computed the value nothing used (a second finding there was noise)
    assert report.codes == ["TM104"]
    primary, = report.findings
    assert primary.primary and primary.location.line == 9  # type: ignore[union-attr]
    assert "at line 8" in primary.message and primary.variables == ("b",)


def test_gradient_call_that_raised_is_in_the_headline(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, WHERE["tf.unique raises LookupError in tape.gradient"][1])
    assert report.headline.startswith("The gradient call at"), report.headline
    assert "raised LookupError" in report.headline


def test_two_unnamed_variables_are_two_weights_in_the_headline(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf
        a = tf.Variable(1.0)
        b = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            loss = a * b
        g = tape.gradient(loss, [a, b])
        """)
    assert [s.variable for c in report.gradient_calls for s in c.sources] == [
        "Variable", "Variable"]
    assert report.headline == "All 2 weights get a gradient"


def test_a_later_run_that_loses_the_gradient_is_analysed(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf
        x = tf.Variable(2.0, name="x")
        for i in range(3):
            with tf.GradientTape() as tape:
                y = x * x
            dy = tape.gradient(y, x)
            x = x + 1.0
        """)
    verdicts = [s.verdict for c in report.gradient_calls for s in c.sources]
    assert verdicts[0] == "connected" and "severed" in verdicts[1:], verdicts
    assert report.codes == ["TM112"]
    assert report.findings[0].location.line == 8  # type: ignore[union-attr]  # x = x + 1.0
    assert "get a gradient" not in report.headline


def test_a_later_run_loss_is_noted_even_when_not_analysed(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf
        x = tf.Variable(2.0, name="x")
        for i in range(2):
            with tf.GradientTape() as tape:
                y = x * x
            dy = tape.gradient(y, x)
            x = x + 1.0
        """)
    assert any("Run 2 of the gradient call" in n and "None" in n for n in report.notes), \
        report.notes
    assert "no gradient in a later run" in report.headline, report.headline


def test_zero_gradient_keeps_its_verdict_and_draws_a_zero_edge(run_checked: RunChecked) -> None:
    report, line = _run(run_checked, """
        import tensorflow as tf
        w = tf.Variable([0.5, -2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.sign(w) * 3.0)  # <-
        g = tape.gradient(loss, w)
        """)
    assert report.codes == ["TM501"] and report.findings[0].location.line == line  # type: ignore[union-attr]
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"zero"}
    assert "all-zero gradient" in report.headline
    assert any(e.state == "zero" and e.finding == report.findings[0].id
               for e in report.graph.edges)


def test_weights_left_out_of_every_source_list_are_noted(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf
        import keras
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="e")], name="enc")
        dec = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, name="d")], name="dec")
        x = tf.ones((5, 3))
        opt = keras.optimizers.SGD(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((dec(enc(x)) - x) ** 2)
            grads = tape.gradient(loss, dec.trainable_weights)
            opt.apply_gradients(zip(grads, dec.trainable_weights))
        """)
    assert report.codes == ["TM110"]
    (finding,) = report.findings
    assert finding.severity == "info"
    assert {v.rsplit("/", 1)[-1] for v in finding.variables} == {"kernel", "bias"}
    assert all(v.startswith("enc/") for v in finding.variables)


@pytest.mark.parametrize("same_shapes", [True, False])
def test_a_target_network_read_inside_the_tape_is_no_weight_left_out(run_checked: RunChecked,
                                                                     same_shapes: bool) -> None:
    # a DQN's TD target computed inside the tape reads the target network, a copy of the
    # online one synced later by set_weights: by design, no TM110 (its fix would train the
    # target). A network of other shapes left out of the sources is still noted. Seeded: with
    # x all ones, an unseeded init kills all 4 ReLU units about one run in 16, and the online
    # weights' zero gradients are then rightly TM501 (seed 28 does it).
    width = 4 if same_shapes else 5
    report, _ = _run(run_checked, f"""
        import tensorflow as tf
        import keras
        keras.utils.set_random_seed(0)
        def build(name, width):
            return keras.Sequential([keras.Input((3,)), keras.layers.Dense(width, "relu"),
                                     keras.layers.Dense(2)], name=name)
        online, target = build("online", 4), build("target", {width})
        x = tf.ones((5, 3))
        opt = keras.optimizers.SGD(0.1)
        with tf.GradientTape() as tape:
            q = tf.reduce_max(online(x), axis=1)
            y = 1.0 + 0.9 * tf.reduce_max(target(x), axis=1)
            loss = tf.reduce_mean((y - q) ** 2)
        grads = tape.gradient(loss, online.trainable_weights)
        opt.apply_gradients(zip(grads, online.trainable_weights))
        """)
    assert report.codes == ([] if same_shapes else ["TM110"])


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
def test_identity_n_passes_each_input_to_its_own_output(
        run_checked: RunChecked, decorator: str) -> None:
    # tf.identity_n's gradient is positional (array_grad.py _IdentityNGrad): the weight behind
    # the output the loss never uses is not connected, at the line that leaves it out
    report, marked = _run(run_checked, f"""
        import tensorflow as tf
        w1 = tf.Variable(1.0, name="w1")
        w2 = tf.Variable(2.0, name="w2")
        {decorator}
        def step():
            with tf.GradientTape() as tape:
                a, b = tf.identity_n([w1 * 2.0, w2 * 2.0])
                loss = a * 3.0  # <-
            return tape.gradient(loss, [w1, w2])
        grads = step()
        """)
    assert {(f.rule, f.variables) for f in report.findings} == {("TM104", ("w2",))}
    primary = [f for f in report.findings if f.primary]
    assert [f.location.line for f in primary if f.location] == [marked]
