"""Lint reads what TensorFlow's gradient registry says of the op an argument reaches.

Three facts of the registry, asked by building the op on a scratch graph
(``tapemagic.tracing.gradient_probe``) when the catalog is generated, reach the static checker
through ``tapemagic/lint/api_ops.json``: an input whose gradient is None (``tf.pad``'s
``constant_values`` reaches only ``PadV2``'s, ``tf.one_hot``'s ``on_value`` only ``OneHot``'s);
a registered gradient that cannot give one (``tf.sparse.maximum``); an option value that makes
the gradient raise (``tf.linalg.lstsq(..., fast=False)``). And ``tf.constant(variable)`` copies
the variable's value into a constant the tape never saw read. Each has a correct look-alike of
the same shape that must stay silent, and the facts are checked against TensorFlow itself.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import catalog, check_source

HEAD = """\
import keras
import tensorflow as tf
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
x = tf.ones((8, 4))
labels = tf.constant([0, 1, 2, 0, 1, 2, 0, 1])
scale = tf.Variable(0.1, name="scale")
params = model.trainable_variables + [scale]
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body).lstrip("\n")
    compile(source, "<test>", "exec")
    return sorted({(h.code, h.line - OFFSET) for h in check_source(source)})


BAD = {
    # a learned border value given to tf.pad: PadV2's gradient is None for constant_values
    "tf.pad with a learned constant_values": ("""
        with tf.GradientTape() as tape:
            padded = tf.pad(model(x), [[0, 0], [1, 1]], constant_values=scale)
            loss = tf.reduce_mean(tf.square(padded))
        grads = tape.gradient(loss, params)
        """, [("TM201", 2)]),
    # keras-team/keras#18815: Keras 3's ops.pad runs Pad.call, then the backend's tf.pad
    "keras.ops.pad with a learned constant_values": ("""
        with tf.GradientTape() as tape:
            padded = keras.ops.pad(model(x), [[0, 0], [1, 1]], constant_values=scale)
            loss = tf.reduce_mean(tf.square(padded))
        grads = tape.gradient(loss, params)
        """, [("TM201", 2)]),
    # learned label smoothing: OneHot is not differentiable in its on/off values
    "tf.one_hot with learned on/off values": ("""
        with tf.GradientTape() as tape:
            eps = tf.sigmoid(scale)
            soft = tf.one_hot(labels, 3, on_value=1.0 - eps, off_value=eps / 2.0)
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(soft, model(x)))
        grads = tape.gradient(loss, params)
        """, [("TM201", 3)]),
    # tensorflow/tensorflow#56968: _MatrixSolveLsGrad raises for fast=False
    "tf.linalg.lstsq(..., fast=False) of learned features": ("""
        with tf.GradientTape() as tape:
            coeffs = tf.linalg.lstsq(model(x), tf.ones((8, 1)), fast=False)
            loss = tf.reduce_sum(tf.matmul(model(x), coeffs))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 2)]),
    # tensorflow/tensorflow#61132: _SparseSparseMaximumGrad takes one output gradient of two
    "tf.sparse.maximum of learned edge values": ("""
        with tf.GradientTape() as tape:
            edges = tf.constant([[0, 1], [1, 2]], tf.int64)
            a = tf.SparseTensor(edges, tf.reshape(model(x)[:2, 0], [-1]), [3, 3])
            b = tf.SparseTensor(edges, tf.reshape(model(x)[2:4, 0], [-1]), [3, 3])
            loss = tf.sparse.reduce_sum(tf.sparse.maximum(a, b))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 5)]),
    # tensorflow/tensorflow#29942: a learned temperature wrapped in tf.constant
    "tf.constant of a trained variable": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) / tf.constant(scale))
        grads = tape.gradient(loss, params)
        """, [("TM104", 2)]),
}

GOOD = {
    "tf.pad of activations with a constant border": """
        with tf.GradientTape() as tape:
            padded = tf.pad(model(x) * scale, [[0, 0], [1, 1]], constant_values=0.5)
            loss = tf.reduce_mean(tf.square(padded))
        grads = tape.gradient(loss, params)
        """,
    "a learned border concatenated, not padded": """
        with tf.GradientTape() as tape:
            h = model(x)
            border = tf.ones_like(h[:, :1]) * scale
            loss = tf.reduce_mean(tf.square(keras.ops.concatenate([border, h, border], 1)))
        grads = tape.gradient(loss, params)
        """,
    "learned smoothing mixed with a plain one_hot": """
        with tf.GradientTape() as tape:
            eps = tf.sigmoid(scale)
            hot = tf.one_hot(labels, 3, on_value=0.9, off_value=0.05)
            soft = (1.0 - eps) * hot + eps / 2.0 * (1.0 - hot)
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(soft, model(x)))
        grads = tape.gradient(loss, params)
        """,
    "tf.linalg.lstsq on its default fast path": """
        with tf.GradientTape() as tape:
            coeffs = tf.linalg.lstsq(model(x), tf.ones((8, 1)), l2_regularizer=1e-3)
            loss = tf.reduce_sum(tf.matmul(model(x), coeffs))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "tf.sparse.add of learned edge values": """
        with tf.GradientTape() as tape:
            edges = tf.constant([[0, 1], [1, 2]], tf.int64)
            a = tf.SparseTensor(edges, tf.reshape(model(x)[:2, 0], [-1]), [3, 3])
            b = tf.SparseTensor(edges, tf.reshape(model(x)[2:4, 0], [-1]), [3, 3])
            loss = tf.sparse.reduce_sum(tf.sparse.add(a, b))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "a snapshot tf.constant(variable) beside the variable (a proximal term)": """
        anchor = tf.constant(scale)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) * scale) + tf.square(scale - anchor)
        grads = tape.gradient(loss, params)
        """,
    "tf.convert_to_tensor of a variable reads it": """
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) / tf.convert_to_tensor(scale))
        grads = tape.gradient(loss, params)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_registry_cut_of_one_argument_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_its_look_alike_of_the_same_shape_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []


def test_the_catalog_names_the_parameters_and_the_option() -> None:
    assert catalog.stopped("tensorflow.pad")["constant_values"] == (3, "non-differentiable")
    assert catalog.stopped("keras.ops.pad")["constant_values"][1] == "non-differentiable"
    assert {"on_value", "off_value"} <= set(catalog.stopped("tensorflow.one_hot"))
    # wrapped in stop_gradient: still its own kind
    assert catalog.stopped("tensorflow.nn.moments")["shift"][1] == "stop-gradient"
    assert catalog.option_cut("tensorflow.linalg.lstsq", {"fast": "False"}, []) is not None
    assert catalog.option_cut("tensorflow.linalg.lstsq", {"fast": "True"}, []) is None
    assert catalog.raises(("MatrixSolveLs",)) and catalog.raises(("SparseSparseMaximum",))


@pytest.mark.tf
def test_the_probe_says_what_tensorflow_does() -> None:
    """The registry's answers, and the same facts seen on a real tape."""
    import tensorflow as tf

    from tapemagic.tracing import gradient_probe

    assert gradient_probe.none_inputs("PadV2") == {"constant_values"}
    assert gradient_probe.none_inputs("OneHot") == {"on_value", "off_value"}
    assert gradient_probe.none_inputs("MatMul") == frozenset()
    assert gradient_probe.always_raises("SparseSparseMaximum")
    assert not gradient_probe.always_raises("SparseAdd")
    assert gradient_probe.raises_with("MatrixSolveLs", (("fast", False),))
    assert not gradient_probe.raises_with("MatrixSolveLs", (("fast", True),))

    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        only_border = tf.pad(tf.ones((2, 2)), [[1, 1], [0, 0]], constant_values=v)
    assert tape.gradient(only_border, v) is None
    with tf.GradientTape(persistent=True) as tape:
        copied = tf.constant(v) * 3.0
        converted = tf.convert_to_tensor(v) * 3.0
    assert tape.gradient(copied, v) is None
    assert tape.gradient(converted, v) is not None
