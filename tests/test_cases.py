"""Cuts tapemagic must name, and correct code (some of it suspicious-looking) it leaves alone."""

from __future__ import annotations

import textwrap

import pytest

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

SETUP = """
import numpy as np
import tensorflow as tf
tf.random.set_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
"""


def run(cell: str, namespace: dict[str, object] | None = None,
        **options: bool) -> tapemagic.Check:
    namespace = {} if namespace is None else namespace
    exec(compile(SETUP, "<setup>", "exec"), namespace)  # noqa: S102
    check = None
    try:
        with tapemagic.gradcheck(**options) as check:  # type: ignore[arg-type]
            exec(compile(textwrap.dedent(cell), "<cell>", "exec"), namespace)  # noqa: S102
    except Exception:  # noqa: BLE001 - fit without gradients raises; the report is what we test
        pass
    assert check is not None and check.report is not None
    validate_report(check.report.to_json())
    return check


CUTS = {
    "round": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.round(model(x)) - y) ** 2
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM201"}, "Round"),
    "argmax": ("""
        with tf.GradientTape() as tape:
            idx = tf.argmax(model(x), axis=0)
            loss = tf.reduce_sum(tf.cast(idx, tf.float32))
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM201"}, "ArgMax"),
    "int cast": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.cast(tf.cast(model(x) * 10, tf.int32), tf.float32))
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM202"}, "Cast"),
    "stop_gradient": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.stop_gradient(model(x)) - y) ** 2)
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM401"}, "StopGradient"),
    "loss after the with block": ("""
        with tf.GradientTape() as tape:
            pred = model(x)
        loss = tf.reduce_mean((pred - y) ** 2)
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM103"}, None),
    "weight never used": ("""
        unused = tf.Variable(1.0, name="unused")
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        g = tape.gradient(loss, model.trainable_weights + [unused])
        """, {"TM104"}, None),
    "tensor source never watched": ("""
        t = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(t * t)
        g = tape.gradient(loss, t)
        """, {"TM102"}, None),
    "float() round trip": ("""
        with tf.GradientTape() as tape:
            scale = float(tf.reduce_mean(model(x)))
            loss = tf.constant(scale) * 2.0
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM301"}, None),
    "Variable.numpy() directly": ("""
        v = tf.Variable([1.0, 2.0], name="v")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v.numpy() * 2)
        g = tape.gradient(loss, v)
        """, {"TM301"}, None),
    "np.asarray(variable)": ("""
        v = tf.Variable([1.0, 2.0], name="v")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.constant(np.asarray(v)) * 2)
        g = tape.gradient(loss, v)
        """, {"TM301"}, None),
    "numpy_function": ("""
        with tf.GradientTape() as tape:
            z = tf.numpy_function(lambda a: a * 2, [model(x)], tf.float32)
            loss = tf.reduce_sum(z)
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM302"}, None),
}


@pytest.mark.parametrize("name", sorted(CUTS))
def test_cut_is_named(name: str) -> None:
    cell, codes, op_type = CUTS[name]
    report = run(cell).report
    assert set(report.codes) == codes, report.codes
    finding = report.findings[0]
    assert finding.primary and finding.location is not None
    if op_type:
        assert finding.op_type == op_type
    weights = {s.variable for c in report.gradient_calls for s in c.sources}
    assert set(finding.variables) <= weights and finding.variables


NOISE_FREE = {
    # DCGAN: the discriminator's optimizer step before the generator tape, and the comparison
    # inside the logits BCE (a select condition), carry no gradient by design: one finding.
    "GAN with .numpy() in the generator loss": """
        gen = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(4)])
        disc = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1)])
        g_opt, d_opt = tf.keras.optimizers.Adam(), tf.keras.optimizers.Adam()
        bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
        for step in range(2):
            with tf.GradientTape() as d_tape:
                fake, real = disc(gen(x)), disc(x)
                d_loss = bce(tf.ones_like(real), real) + bce(tf.zeros_like(fake), fake)
            d_grads = d_tape.gradient(d_loss, disc.trainable_weights)
            d_opt.apply_gradients(zip(d_grads, disc.trainable_weights))
            with tf.GradientTape() as g_tape:
                fake = disc(gen(x))
                g_loss = bce(tf.ones_like(fake), fake.numpy())
            g_grads = g_tape.gradient(g_loss, gen.trainable_weights)
        """,
    "mask from a comparison next to a .numpy() cut": """
        with tf.GradientTape() as tape:
            pred = model(x)
            mask = tf.cast(pred > 0.0, tf.float32)
            loss = tf.reduce_sum(mask * tf.constant(pred.numpy()) ** 2)
        g = tape.gradient(loss, model.trainable_weights)
        """,
    "gather by argmax next to a round cut": """
        with tf.GradientTape() as tape:
            pred = model(x)
            best = tf.argmax(pred[:, 0])
            loss = tf.gather(tf.round(pred[:, 0]), best)
        g = tape.gradient(loss, model.trainable_weights)
        """,
}


@pytest.mark.parametrize("name", sorted(NOISE_FREE))
def test_only_the_cut_is_reported(name: str) -> None:
    report = run(NOISE_FREE[name]).report
    assert len(report.findings) == 1, [f.message for f in report.findings]
    assert report.findings[0].primary


CLEAN = {
    "custom training loop": """
        opt = tf.keras.optimizers.SGD(0.1)
        for step in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply_gradients(zip(grads, model.trainable_weights))
        """,
    "fit": """
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, epochs=2, batch_size=4, verbose=0)
        """,
    "metrics with numpy after the tape": """
        with tf.GradientTape() as tape:
            pred = model(x)
            loss = tf.reduce_mean((pred - y) ** 2)
        grads = tape.gradient(loss, model.trainable_weights)
        err = np.abs(pred.numpy() - y.numpy()).mean()
        print(float(loss), np.sqrt(err))
        """,
    "argmax for an accuracy metric": """
        clf = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3)])
        labels = tf.constant([0, 1, 2, 0, 1, 2, 0, 1])
        with tf.GradientTape() as tape:
            logits = clf(x)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
                labels, logits, from_logits=True))
            acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32),
                                                  labels), tf.float32))
        grads = tape.gradient(loss, clf.trainable_weights)
        """,
    "integer labels and an embedding lookup": """
        emb = tf.keras.Sequential([tf.keras.layers.Input((5,), dtype="int32"),
                                   tf.keras.layers.Embedding(20, 4), tf.keras.layers.Flatten(),
                                   tf.keras.layers.Dense(1)])
        ids = tf.constant(np.arange(40).reshape(8, 5) % 20, dtype=tf.int32)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((emb(ids) - y) ** 2)
        grads = tape.gradient(loss, emb.trainable_weights)
        """,
    "stop_gradient on a target network that is not a source": """
        target = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            q_target = tf.stop_gradient(target(x))
            loss = tf.reduce_mean((model(x) - q_target) ** 2)
        grads = tape.gradient(loss, model.trainable_weights)
        """,
    "frozen layer left out of the sources": """
        model.layers[0].trainable = False
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_weights)
        model.layers[0].trainable = True
        """,
    "Python if on a tensor in a connected loss": """
        with tf.GradientTape() as tape:
            pred = model(x)
            loss = tf.reduce_mean((pred - y) ** 2)
            if loss > 100.0:
                loss = loss / 10.0
        grads = tape.gradient(loss, model.trainable_weights)
        """,
}


CLEAN.update({
    "saliency map and an optimised input image": """
        image = tf.Variable(tf.ones((1, 4)), name="image")
        opt = tf.keras.optimizers.SGD(0.1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(image))
        opt.apply_gradients(zip(tape.gradient(loss, [image]), [image]))
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = model(x)
        saliency = tape.gradient(out, x)
        """,
    "target network read in the tape and updated by a moving average": """
        target = tf.keras.models.clone_model(model)
        target.set_weights(model.get_weights())
        opt = tf.keras.optimizers.SGD(0.1)
        for step in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - (y + 0.9 * target(x))) ** 2)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply_gradients(zip(grads, model.trainable_weights))
            for t, o in zip(target.weights, model.weights):
                t.assign(0.99 * t + 0.01 * o)
        """,
})


def test_a_generator_step_alone_is_not_an_error() -> None:
    # the discriminator is on the generator's loss path and trains in another cell: a hint
    report = run("""
        gen = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(4)])
        disc = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            g_loss = -tf.reduce_mean(disc(gen(x)))
        grads = tape.gradient(g_loss, gen.trainable_weights)
        """).report
    assert [f.severity for f in report.findings] == ["info"], report.codes


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_code_yields_no_finding(name: str) -> None:
    report = run(CLEAN[name]).report
    assert report.codes == [], [f.message for f in report.findings]
    assert report.gradient_calls
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"connected"}


def test_fit_goes_on_in_graph_mode_after_the_analysed_step() -> None:
    namespace: dict[str, object] = {}
    check = run("""
        model.compile(optimizer="sgd", loss="mse")
        history = model.fit(x, y, epochs=3, batch_size=2, verbose=0)
        """, namespace, force_eager=True)
    report = check.report
    history = namespace["history"]
    (call,) = report.gradient_calls
    assert call.keras_fit  # 4 steps x 3 epochs; the first one was analysed
    assert history.history["loss"][-1] < history.history["loss"][0]  # type: ignore[attr-defined]
    assert any("fit went on in graph mode" in note for note in report.notes)
    assert report.codes == []
