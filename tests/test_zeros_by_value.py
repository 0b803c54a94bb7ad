"""Zeros by value (issue 17, 3.): a saturated softmax under a cross-entropy on probabilities
(TM505) and a bias that BatchNormalization cancels (TM506) are explained, as information only.

Each program is written to a real file and run through ``tapemagic.gradcheck`` in graph mode as
written (a ``@tf.function`` step that returns its gradients, so their values are seen) and
forced eager. The broken shape gets its info finding on the line to change, naming the weights;
correct code of the same shapes gets no warning or error finding, and no report of either kind
ever counts as a cut for auto mode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checked import run_program

from tapemagic.auto import has_cut
from tapemagic.report.model import Report

pytestmark = pytest.mark.tf
MODES = pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])
ROOT = Path(__file__).resolve().parent.parent


def check(tmp_path: Path, source: str, eager: bool, seed: int = 0,
          namespace: dict[str, Any] | None = None) -> tuple[Report, Path]:
    """Run ``source`` under gradcheck; return the report and the file (for line lookups).

    ``namespace``: where the program runs (its values, to look at afterwards).
    """
    done = run_program(tmp_path, source, name="prog.py", namespace=namespace, force_eager=eager,
                       prefix="import numpy as np\nimport tensorflow as tf\n"
                              f"tf.keras.utils.set_random_seed({seed})\n")
    return done.report, done.path


def line(path: Path, needle: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(needle)


def loud(report: Report) -> list[str]:
    return [f"{f.rule}@{f.location.line if f.location else 0}: {f.message}"
            for f in report.findings if f.severity in ("warning", "error")]


def of(report: Report, code: str) -> list[tuple[int, tuple[str, ...], str]]:
    return [(f.location.line if f.location else 0, f.variables, f.severity)
            for f in report.findings if f.rule == code]


# -- 1. a softmax one-hot on every row, then a cross-entropy on its probabilities -----------
# A batch of 6 rows: from 8 rows on, TensorFlow's vectorised softmax kernel on AVX2 CPUs gives a
# saturated row 0.99999994 instead of 1.0 (measured on TF 2.21), and the gradient is tiny
# instead of zero: nothing to explain there.

SOFTMAX = """
model = tf.keras.Sequential([tf.keras.layers.Input((64,)), tf.keras.layers.Dense(3, name="z")],
                            name="clf")
rng = np.random.default_rng(5)
x = tf.constant(rng.integers(0, 256, size=(6, 64)).astype("float32") * {scale})
y = tf.one_hot(rng.integers(0, 3, size=6), 3)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(model(a))
        loss = -tf.reduce_mean(tf.reduce_sum(b * tf.math.log({probs}), axis=1))
    return tape.gradient(loss, model.trainable_variables)

g = step(x, y)
"""
CLIP = "tf.clip_by_value(probs, 1e-7, 1.0)"


@MODES
@pytest.mark.parametrize("probs", [CLIP, "probs + 1e-10"], ids=["clip", "epsilon"])
def test_saturated_softmax_is_explained(tmp_path: Path, eager: bool, probs: str) -> None:
    # raw pixel values: logits in the hundreds, every softmax row is one-hot in float32
    report, path = check(tmp_path, SOFTMAX.format(scale="1.0", probs=probs), eager)
    assert loud(report) == []
    assert of(report, "TM505") == [(line(path, "probs = tf.nn.softmax"),
                                    ("clf/z/kernel", "clf/z/bias"), "info")]
    message = next(f.message for f in report.findings if f.rule == "TM505")
    assert "`tf.math.log` of its probabilities" in message
    # graph mode too: the traced step computes its softmax's saturation itself (probes.py)
    assert "one-hot on every row" in message
    assert not has_cut(report)


@MODES
def test_a_softmax_that_trains_is_silent(tmp_path: Path, eager: bool) -> None:
    # the same loss on normalised inputs: moderate logits, real gradients
    report, _ = check(tmp_path, SOFTMAX.format(scale="(1.0 / 2550.0)", probs=CLIP), eager)
    assert report.findings == ()
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"connected"}


@MODES
def test_keras_cross_entropy_after_a_softmax_layer_is_silent(tmp_path: Path, eager: bool) -> None:
    # from_logits=False after a softmax activation: Keras hands the loss the logits itself
    source = SOFTMAX.format(scale="1.0", probs=CLIP).replace(
        'tf.keras.layers.Dense(3, name="z")', 'tf.keras.layers.Dense(3, activation="softmax", '
        'name="z")').replace(
        "probs = tf.nn.softmax(model(a))", "probs = model(a)").replace(
        "loss = -tf.reduce_mean(tf.reduce_sum(b * tf.math.log(tf.clip_by_value(probs, 1e-7, "
        "1.0)), axis=1))", "loss = tf.keras.losses.CategoricalCrossentropy()(b, probs)")
    report, _ = check(tmp_path, source, eager)
    assert "CategoricalCrossentropy" in (tmp_path / "prog.py").read_text()
    assert loud(report) == []
    assert of(report, "TM505") == []


@MODES
def test_keras_cross_entropy_on_a_bare_softmax_tensor(tmp_path: Path, eager: bool) -> None:
    # a `tf.nn.softmax` tensor handed to Keras' cross-entropy: eagerly Keras clips the
    # probabilities (zeros through a saturated softmax); in a traced step it finds the
    # Softmax op and uses its logits, so the step trains
    source = SOFTMAX.format(scale="1.0", probs=CLIP).replace(
        "loss = -tf.reduce_mean(tf.reduce_sum(b * tf.math.log(tf.clip_by_value(probs, 1e-7, "
        "1.0)), axis=1))", "loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(b, "
        "probs))")
    report, path = check(tmp_path, source, eager)
    assert "categorical_crossentropy(b, probs)" in path.read_text()
    assert loud(report) == []
    if eager:
        assert of(report, "TM505") == [(line(path, "probs = tf.nn.softmax"),
                                        ("clf/z/kernel", "clf/z/bias"), "info")]
    else:
        assert report.findings == ()


@MODES
def test_clipped_probabilities_clean_program_is_silent(tmp_path: Path, eager: bool) -> None:
    clean = ROOT / "bench" / "cases" / "clean" / "clip_probabilities_epsilon.py"
    report = run_program(tmp_path, clean.read_text(), name=clean.name, force_eager=eager).report
    assert report.findings == ()


# -- 2. a bias right before BatchNormalization ----------------------------------------------

BATCHNORM = """
model = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(8, {bias}name="d"),
                             tf.keras.layers.BatchNormalization(name="bn"),
                             tf.keras.layers.ReLU(), tf.keras.layers.Dense(1, name="out")],
                            name="net")
rng = np.random.default_rng(2)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 1)).astype("float32"))

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
    return tape.gradient(loss, model.trainable_variables)

g = step(x, y)
"""


@MODES
def test_bias_cancelled_by_batchnorm_is_explained(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, BATCHNORM.format(bias=""), eager)
    assert loud(report) == []
    assert of(report, "TM506") == [(line(path, 'Dense(8, name="d")'), ("net/d/bias",),
                                    "info")]
    message = next(f.message for f in report.findings if f.rule == "TM506")
    assert "`bn`" in message
    assert not has_cut(report)


@MODES
def test_no_bias_before_batchnorm_is_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, BATCHNORM.format(bias="use_bias=False, "), eager)
    assert report.findings == ()


@MODES
def test_bias_before_layer_normalization_is_silent(tmp_path: Path, eager: bool) -> None:
    # a layer norm reduces the features of each example, not the batch: the bias trains
    # (batch of 8 = 8 channels, so the statistics' shape alone cannot tell them apart)
    source = BATCHNORM.format(bias="").replace("BatchNormalization", "LayerNormalization")
    report, _ = check(tmp_path, source.replace("size=(32,", "size=(8,"), eager)
    assert report.findings == ()


CONV = """
inputs = tf.keras.Input((8, 8, 2))
h = tf.keras.layers.Conv2D(4, 3, use_bias={bias}, name="conv")(inputs)
h = tf.keras.layers.BatchNormalization(name="bn")(h)
h = tf.keras.layers.GlobalAveragePooling2D()(tf.keras.layers.ReLU()(h))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="out")(h))
rng = np.random.default_rng(7)
x = tf.constant(rng.normal(size=(8, 8, 8, 2)).astype("float32"))
y = tf.constant(rng.normal(size=(8, 1)).astype("float32"))
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=2, batch_size=4, verbose=0)
"""


@MODES
@pytest.mark.parametrize("bias", ["False", "True"])
def test_conv_batchnorm_models_that_train_have_no_warning(tmp_path: Path, eager: bool,
                                                          bias: str) -> None:
    report, _ = check(tmp_path, CONV.format(bias=bias), eager)
    assert loud(report) == []
    assert not has_cut(report)
    if bias == "False":
        assert of(report, "TM506") == []


# keras.io "Text classification with Transformer": the key projection's bias (an EinsumDense
# bias of shape (heads, key_dim), rank 2) adds one score to every key of a query, which the
# softmax ignores, so its gradient is round-off by construction (measured 4.6e-9 against 0.5
# on this program): correct code, not a vanishing gradient.
ATTENTION = """
att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=8, name="att")
head = tf.keras.layers.Dense(2, name="head")
x = tf.random.normal((8, 10, 8)); y = tf.constant(np.random.default_rng(0).integers(0, 2, 8))
head(tf.reduce_mean(att(x, x), axis=1))
weights = att.trainable_variables + head.trainable_variables

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        logits = head(tf.reduce_mean(att(a, a), axis=1))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            b, logits, from_logits=True))
    return tape.gradient(loss, weights)

g = step(x, y)
key_bias = float(tf.norm(g[3])) / max(float(tf.norm(t)) for t in g)
"""


@MODES
def test_attention_key_bias_round_off_is_silent(tmp_path: Path, eager: bool) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    report, _ = check(tmp_path, ATTENTION, eager, namespace=namespace)
    assert namespace["key_bias"] < 1e-6  # the shape TM502 looks at, still there
    assert report.findings == ()


# The TensorFlow tutorial "Neural machine translation with attention" (Bahdanau attention):
# the query projection W1 is broadcast over the keys and passes a tanh of small activations
# before the softmax, which ignores a score added to a whole row: its gradient is of second
# order (measured 1.3e-8 against 1.06), by construction at initialisation, not vanishing.
BAHDANAU = """
class Attention(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.W1 = tf.keras.layers.Dense(units, name="w1")
        self.W2 = tf.keras.layers.Dense(units, name="w2")
        self.V = tf.keras.layers.Dense(1, name="v")
    def call(self, query, values):
        score = self.V(tf.nn.tanh(self.W1(tf.expand_dims(query, 1)) + self.W2(values)))
        return tf.reduce_sum(tf.nn.softmax(score, axis=1) * values, axis=1)

attention = Attention(8)
gru = tf.keras.layers.GRU(8, return_state=True)
head = tf.keras.layers.Dense(10, name="head")
tokens = tf.keras.layers.Embedding(12, 6, name="tokens")
ids = tf.constant([[3, 4, 5, 0], [6, 7, 0, 0]]); targets = tf.constant([4, 6])

@tf.function
def step(ids, targets):
    with tf.GradientTape() as tape:
        values, state = gru(tokens(ids))
        context = attention(state, values)
        logits = head(tf.concat([context, state], axis=-1))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, logits, from_logits=True))
    weights = tokens.trainable_variables + gru.trainable_variables + \\
        attention.trainable_variables + head.trainable_variables
    return tape.gradient(loss, weights)

g = step(ids, targets)
weights = tokens.trainable_variables + gru.trainable_variables + \
    attention.trainable_variables + head.trainable_variables
norms = {v.path: float(tf.norm(t)) for v, t in zip(weights, g)}
w1 = norms[next(p for p in norms if p.endswith("w1/kernel"))] / max(norms.values())
"""


@MODES
def test_attention_query_projection_behind_its_softmax_is_silent(tmp_path: Path,
                                                                 eager: bool) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    report, _ = check(tmp_path, BAHDANAU, eager, seed=18, namespace=namespace)
    assert namespace["w1"] < 1e-6  # the shape TM502 looks at, still there
    assert of(report, "TM502") == []


@MODES
def test_a_vanishing_kernel_before_a_softmax_output_is_still_explained(tmp_path: Path,
                                                                       eager: bool) -> None:
    # every path passes the classifier's softmax, but nothing repeats the kernel's value over
    # the classes: a gradient scaled down on the way is TM502's, softmax or not
    report, _ = check(tmp_path, """
        w = tf.Variable(tf.random.normal((4, 8)), name="deep")
        out = tf.Variable(tf.random.normal((8, 3)), name="out")
        skip = tf.Variable(tf.random.normal((4, 3)), name="skip")
        x = tf.random.normal((16, 4)); y = tf.constant(np.arange(16) % 3)

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                h = tf.tanh(tf.matmul(x, w) * 1e-9)
                p = tf.nn.softmax(tf.matmul(h, out) + tf.matmul(x, skip))
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, p))
            return tape.gradient(loss, [w, out, skip])

        g = step()
        """, eager)
    assert [(f.rule, f.variables) for f in report.findings] == [("TM502", ("deep", "out"))]
