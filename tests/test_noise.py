"""Nothing but the cuts: on broken training code, each finding is a cut the user must fix, once.

Graph mode as users write it (``@tf.function`` steps, ``fit`` with ``jit_compile``): a
``tf.round`` after a BatchNormalization is one finding (the layer's own ``stop_gradient`` on its
batch mean is no cut to fix); a tensor computed from a model's output and never watched is one
finding, at the tape where the watch goes; an optimizer's updates are never cuts.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf


def _run(run_checked: RunChecked, source: str, force_eager: bool = False,
         max_steps: int = 1) -> tuple[Report, list[int]]:
    # broken programs raise as the user's did
    return run_checked(source, catch=Exception, force_eager=force_eager, max_steps=max_steps)


def _places(report: Report) -> list[tuple[str, int | None]]:
    return [(f.rule, f.location.line if f.location else None) for f in report.findings]


_GAN = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    generator = tf.keras.Sequential([
        tf.keras.layers.Input((4,)),
        tf.keras.layers.Dense(32, use_bias=False, name="g_dense"),
        tf.keras.layers.BatchNormalization(name="g_bn"),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Dense(8, activation="tanh", name="g_out")], name="generator")
    discriminator = tf.keras.Sequential([
        tf.keras.layers.Input((8,)),
        tf.keras.layers.Dense(4, activation="relu", name="d_hidden"),
        tf.keras.layers.Dense(1, name="d_out")], name="discriminator")
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    real = tf.constant(np.random.default_rng(2).normal(size=(16, 8)).astype("float32"))

    @tf.function
    def step(real):
        noise = tf.random.normal([16, 4])
        with tf.GradientTape() as gen_tape:
            fake = generator(noise, training=True)
            QUANTISE
            fake_out = discriminator(fake, training=True)
            gen_loss = bce(tf.ones_like(fake_out), fake_out)
        return gen_tape.gradient(gen_loss, generator.trainable_variables
                                 + discriminator.trainable_variables)

    grads = step(real)
    """


def test_round_after_batchnorm_is_one_finding(run_checked: RunChecked) -> None:
    report, marked = _run(run_checked, _GAN.replace(
        "QUANTISE", "fake = tf.round(fake * 127.5) / 127.5  # <-"))
    assert _places(report) == [("TM201", marked[0])], [(f.rule, f.message)
                                                       for f in report.findings]
    assert len(report.findings[0].variables) == 5  # every generator weight, none of the other


def test_batchnorm_alone_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _GAN.replace("QUANTISE", "fake = fake * 1.0"))
    assert report.findings == (), [(f.rule, f.message) for f in report.findings]


_PENALTY = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    critic = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                  tf.keras.layers.Dense(8, activation="tanh", name="c1"),
                                  tf.keras.layers.Dense(1, name="c2")], name="critic")
    generator = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                                     tf.keras.layers.Dense(4, name="g")], name="generator")
    real = tf.constant(np.random.default_rng(3).normal(size=(8, 4)).astype("float32"))

    @tf.function
    def penalty(real):
        fake = generator(tf.random.normal([8, 2]))
        alpha = tf.random.uniform([8, 1])
        interpolated = real + alpha * (fake - real)
        with tf.GradientTape() as gp_tape:  # <-
            WATCH
            pred = critic(interpolated)
        return gp_tape.gradient(pred, [interpolated])[0]

    grads = penalty(real)
    """


def test_unwatched_interpolates_are_one_finding_at_the_tape(run_checked: RunChecked) -> None:
    report, marked = _run(run_checked, _PENALTY.replace("WATCH", "pass"))
    assert _places(report) == [("TM102", marked[0])], [
        (f.rule, f.location.line if f.location else None) for f in report.findings]


def test_watched_interpolates_are_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _PENALTY.replace("WATCH", "gp_tape.watch(interpolated)"))
    assert report.findings == ()


def test_an_unwatched_constant_keeps_its_second_place(run_checked: RunChecked) -> None:
    # a constant could be made a tf.Variable where it is made: that line stays a second place
    report, _ = _run(run_checked, """
        import tensorflow as tf
        w = tf.constant([1.0, 2.0])
        with tf.GradientTape() as g:
            total = tf.reduce_sum(w * w)
        dw = g.gradient(total, w)
        """)
    assert sorted(line for _, line in _places(report)) == [3, 4]  # the constant, the tape


_JIT_FIT = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(11)
    x = rng.normal(size=(60, 5)).astype("float32")
    y = x[:, :1] * 2.0 + 0.5

    class Gate(tf.keras.layers.Layer):
        def call(self, inputs):
            return GATE

    inputs = tf.keras.Input((5,))
    main = tf.keras.layers.Dense(8, activation="relu", name="main")(inputs)
    gate = Gate(name="gate")(tf.keras.layers.Dense(8, name="gate_logits")(inputs))
    out = tf.keras.layers.Dense(1, name="head")(main * gate)
    model = tf.keras.Model(inputs, out, name="gated")
    model.compile(optimizer="adam", loss="mse", jit_compile=True, steps_per_execution=2)
    model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    """


@pytest.mark.parametrize("force_eager", [False, True])
def test_jit_fit_reports_the_cut_and_no_optimizer_update(run_checked: RunChecked,
                                                         force_eager: bool) -> None:
    source = _JIT_FIT.replace("return GATE", "return tf.round(tf.sigmoid(inputs))  # <-")
    report, marked = _run(run_checked, source, force_eager)
    assert _places(report) == [("TM201", marked[0])], [(f.rule, f.message)
                                                       for f in report.findings]


def test_jit_fit_correct_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _JIT_FIT.replace("return GATE", "return tf.sigmoid(inputs)"))
    assert report.findings == (), [(f.rule, f.message) for f in report.findings]


def test_a_conversion_in_a_loop_is_one_finding(run_checked: RunChecked) -> None:
    # actor-critic: the critic's value is stored as a Python float at every step of an episode
    report, marked = _run(run_checked, """
        import tensorflow as tf

        dense = tf.keras.layers.Dense(2, name="actor")
        critic = tf.keras.layers.Dense(1, name="critic")
        states = tf.random.stateless_normal((5, 1, 3), seed=(1, 2))
        values, logs = [], []
        with tf.GradientTape() as tape:
            for state in states:
                out = dense(state)
                values.append(float(critic(state)[0, 0]))  # <-
                logs.append(tf.math.log(tf.nn.softmax(out)[0, 0]))
            huber = tf.keras.losses.Huber()
            loss = (sum(-lp * (1.0 - v) for lp, v in zip(logs, values))
                    + sum(huber(tf.expand_dims(v, 0), tf.ones(1)) for v in values))
        g = tape.gradient(loss, dense.trainable_variables + critic.trainable_variables)
        """)
    assert _places(report) == [("TM301", marked[0])], _places(report)


def test_a_conversion_in_a_loop_done_right_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, """
        import tensorflow as tf

        dense = tf.keras.layers.Dense(2, name="actor")
        critic = tf.keras.layers.Dense(1, name="critic")
        states = tf.random.stateless_normal((5, 1, 3), seed=(1, 2))
        values, logs = [], []
        with tf.GradientTape() as tape:
            for state in states:
                out = dense(state)
                values.append(critic(state)[0, 0])
                print(float(values[-1]))
                logs.append(tf.math.log(tf.nn.softmax(out)[0, 0]))
            huber = tf.keras.losses.Huber()
            loss = (sum(-lp * (1.0 - v) for lp, v in zip(logs, values))
                    + sum(huber(tf.expand_dims(v, 0), tf.ones(1)) for v in values))
        g = tape.gradient(loss, dense.trainable_variables + critic.trainable_variables)
        """)
    assert report.findings == (), _places(report)


def test_a_line_outside_the_tape_is_one_finding(run_checked: RunChecked) -> None:
    # a VAE's KL term after the `with` block: one line, several ops, one finding
    report, marked = _run(run_checked, """
        import tensorflow as tf

        mean_layer = tf.keras.layers.Dense(2, name="z_mean")
        var_layer = tf.keras.layers.Dense(2, name="z_log_var")
        x = tf.random.stateless_normal((4, 3), seed=(3, 4))
        with tf.GradientTape() as tape:
            z_mean, z_log_var = mean_layer(x), var_layer(x)
        kl = -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))  # <-
        loss = tf.reduce_mean(kl)
        g = tape.gradient(loss, mean_layer.trainable_variables + var_layer.trainable_variables)
        """)
    lines = [line for _, line in _places(report)]
    assert lines.count(marked[0]) == 1, _places(report)
    assert {rule for rule, _ in _places(report)} == {"TM103"}


_INTEGRATED_GRADIENTS = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(4, activation="relu",
                                                       bias_initializer="zeros"),
                                 tf.keras.layers.Dense(1)])
    image = tf.constant([[0.5, 1.0, 2.0]])
    baseline = tf.zeros_like(image)
    total = tf.zeros_like(image)
    for alpha in tf.linspace(0.0, 1.0, 5):
        point = baseline + alpha * (image - baseline)
        with tf.GradientTape() as tape:
            tape.watch(point)
            score = model(point)[:, 0]
        total += tape.gradient(score, point)
    attributions = (image - baseline) * total / 5.0
    """


@pytest.mark.parametrize("force_eager", [False, True])
def test_integrated_gradients_from_a_zero_baseline_are_silent(run_checked: RunChecked,
                                                              force_eager: bool) -> None:
    """The first point analysed is the all-zero baseline: its gradient is zero by value."""
    report, _ = _run(run_checked, _INTEGRATED_GRADIENTS, force_eager)
    assert [f for f in report.findings if f.severity != "info"] == []


_FIT_BRANCHES = """
    import numpy as np
    import keras
    import tensorflow as tf

    class Branches(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = keras.layers.Dense(3, name="a")
            self.b = keras.layers.Dense(1, name="b")
            self.c = keras.layers.Dense(1, name="c")

        def call(self, x):
            h = tf.cast(tf.argmax(self.a(x), axis=1), tf.float32)[:, None]  # <-
            return self.b(x) + self.c(h)

    keras.utils.set_random_seed(0)
    model = Branches()
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 4)).astype("float32")
    y = rng.normal(size=(16, 1)).astype("float32")
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    """


def test_an_optimizers_updates_are_never_cuts_when_later_steps_are_analysed(
        run_checked: RunChecked) -> None:
    """Step 2 reads weights step 1's Adam update wrote from the cut branch: no TM402 for it."""
    report, marked = _run(run_checked, _FIT_BRANCHES, max_steps=3)
    assert _places(report) == [("TM201", marked[0])]
