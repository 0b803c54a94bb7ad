"""The HTML of a big report stays notebook-sized: one ResNet50 train step (a correct one).

Measured on TF 2.21 / Keras 3: 121 nodes, 127 edges, 214 weights, about 89 KB of HTML (and
83 KB of report JSON beside it in the bundle). The bound leaves room, and fails if the graph's
drawing or the weights' table grows per item by a factor (each plain edge is one short path).
"""

from __future__ import annotations

import pytest

import tapemagic
from tapemagic.report import mimebundle

pytestmark = [pytest.mark.tf, pytest.mark.slow]
HTML_BOUND = 150_000  # bytes


def test_resnet50_step_report_html_is_notebook_sized() -> None:
    with tapemagic.gradcheck() as check:
        import keras
        import tensorflow as tf

        model = keras.applications.ResNet50(weights=None)
        x, y = tf.random.normal((1, 224, 224, 3)), tf.one_hot([3], 1000)
        with tf.GradientTape() as tape:
            loss = keras.losses.categorical_crossentropy(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        keras.optimizers.SGD().apply_gradients(zip(grads, model.trainable_variables, strict=True))
    report = check.report
    assert report is not None and not report.findings
    assert len(report.graph.nodes) > 100  # the picture by Keras layer, not a toy
    markup = mimebundle(report)["text/html"].encode("utf-8")
    assert len(markup) < HTML_BOUND, len(markup)
    assert markup.count(b'<g class="tm-node ') == len(report.graph.nodes)
