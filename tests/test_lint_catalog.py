"""The checker reads TensorFlow's own facts about its APIs (``tapemagic/lint/api_ops.json``).

An API whose result depends on its tensors only through ops with no registered gradient (an
image-colour op, a sparse reduction, a greedy decoder), or one asked for an integer result
dtype, is a cut wherever the loss reaches weights only through it. The catalog is generated
from TensorFlow (``tapemagic.tracing.api_catalog``): the last test regenerates it and compares.
Each kind has a correct look-alike that must stay silent: the same APIs on data, the
differentiable neighbours, APIs that add differentiable math around a random op.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), tf.keras.layers.Dense(3)])
images = tf.ones((2, 4, 4, 3))
target = tf.zeros((2, 4, 4, 3))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body).lstrip("\n")
    compile(source, "<test>", "exec")
    return sorted({(h.code, h.line - OFFSET) for h in check_source(source)})


def step(loss_lines: str) -> str:
    """A traced step whose tape body is ``loss_lines`` (line 4 is its first line)."""
    body = textwrap.indent(textwrap.dedent(loss_lines).strip("\n"), " " * 8)
    return ("@tf.function\ndef train_step():\n    with tf.GradientTape() as tape:\n"
            f"{body}\n    return tape.gradient(loss, model.trainable_variables)\n")


BAD = {
    # tensorflow/tensorflow#21510: HSVToRGB is registered with no gradient
    "hsv_to_rgb of the prediction": ("""
        rgb = tf.image.hsv_to_rgb(tf.sigmoid(model(images)))
        loss = tf.reduce_mean(tf.square(rgb - target))
        """, [("TM201", 4)]),
    # AdjustHue has no gradient entry; adjust_hue only converts dtypes around it
    "adjust_hue of generated images": ("""
        loss = -tf.reduce_mean(tf.image.adjust_hue(model(images), 0.1))
        """, [("TM201", 4)]),
    # the location is the weights' only way to the loss: ExtractGlimpseV2 has no gradient
    "extract_glimpse at learned offsets": ("""
        where = tf.reduce_mean(model(images), axis=[1, 2])[:, :2]
        glimpse = tf.image.extract_glimpse(images, [2, 2], where)
        loss = tf.reduce_sum(glimpse)
        """, [("TM201", 5)]),
    "sparse.reduce_max pooling": ("""
        feats = tf.reshape(model(images), (2, 48))
        sparse = tf.sparse.from_dense(feats)
        loss = tf.reduce_sum(tf.sparse.reduce_max(sparse, axis=1))
        """, [("TM201", 6)]),
    # tensorflow/tensorflow#23274: an 8-bit image of the prediction
    "convert_image_dtype to uint8": ("""
        out = tf.image.convert_image_dtype(tf.sigmoid(model(images)), tf.uint8)
        loss = tf.reduce_mean(tf.cast(out, tf.float32))
        """, [("TM202", 4)]),
    "greedy CTC decoding, then an edit distance": ("""
        logits = tf.transpose(tf.reshape(model(images), (2, 16, 3)), [1, 0, 2])
        decoded, _ = tf.nn.ctc_greedy_decoder(logits, tf.fill([2], 16))
        truth = tf.sparse.from_dense(tf.ones((2, 3), tf.int64))
        loss = tf.reduce_mean(tf.edit_distance(tf.cast(decoded[0], tf.int64), truth))
        """, [("TM201", 5)]),  # its op has no gradient; it gives float log-probabilities too
}

GOOD = {
    "the same image ops on the input data (augmentation)": """
        jittered = tf.image.adjust_hue(tf.image.hsv_to_rgb(images), 0.1)
        loss = tf.reduce_mean(tf.square(model(jittered) - target))
        """,
    "rgb_to_hsv and adjust_brightness have gradients": """
        hsv = tf.image.rgb_to_hsv(tf.sigmoid(model(images)))
        loss = tf.reduce_mean(tf.image.adjust_brightness(hsv, 0.1))
        """,
    "random.normal with a learned mean (reparameterised)": """
        mu = tf.reduce_mean(model(images))
        loss = tf.reduce_mean(tf.random.normal((4,), mean=mu, stddev=1.0))
        """,
    "convert_image_dtype to float32": """
        out = tf.image.convert_image_dtype(model(images), tf.float32)
        loss = tf.reduce_mean(out)
        """,
    "one_hot of labels and a where on a comparison": """
        pred = model(images)
        labels = tf.one_hot(tf.constant([0, 1]), 3)
        masked = tf.where(pred > 0.0, pred, tf.zeros_like(pred))
        loss = tf.reduce_mean(masked) + tf.reduce_mean(labels)
        """,
    "a metric from a non-differentiable op beside the loss": """
        pred = model(images)
        hue = tf.image.adjust_hue(pred, 0.1)
        loss = tf.reduce_mean(tf.square(pred - target))
        tf.print(tf.reduce_mean(hue), tf.math.is_nan(loss))
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_catalogued_cut_is_hinted_at_its_line(name: str) -> None:
    body, expected = BAD[name]
    assert hints(step(body)) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_its_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(step(GOOD[name])) == []


#: the TensorFlow version `python -m tapemagic.tracing.api_catalog` was last run with
GENERATED_WITH = "2.21."


@pytest.mark.tf
@pytest.mark.slow
def test_the_catalog_is_tensorflows_truth() -> None:
    """The checked-in catalog is what TensorFlow says today (regenerate when it changes).

    It is generated from the main stack's TensorFlow (2.21); another version (the older stack
    CI also runs) has other APIs and ops, and the catalog is not regenerated for it.
    """
    import tensorflow as tf

    from tapemagic.tracing import api_catalog

    if not tf.__version__.startswith(GENERATED_WITH):
        pytest.skip(f"the catalog is generated with TensorFlow {GENERATED_WITH}")

    stored = json.loads(api_catalog.CATALOG.read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(api_catalog.build()))
