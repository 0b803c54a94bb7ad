"""The correct look-alikes of the value-following hints' shapes stay silent (issue 33, section 6).

TF-free: sources are parsed, never run. Each shape test_lint_flows.py hints has correct code of
the same shape here that gets no hint: a ``Lambda``'s variable that only a metric reads, a
``tf.py_function`` on TensorFlow ops of its own inputs, a teacher in ``dataset.map`` beside the
student's weights, a GAN toggling ``trainable`` around each model's own ``train_on_batch``. A
hint on correct code is the worst bug.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

CLEAN = {
    "a Lambda's variable on a second output that only a metric reads, custom step": """
        temperature = tf.Variable(2.0)
        inp = keras.Input((3,))
        logits = keras.layers.Dense(2)(inp)
        shown = keras.layers.Lambda(lambda t: t / temperature)(logits)
        model = keras.Model(inp, [logits, shown])
        with tf.GradientTape() as tape:
            main, calibrated = model(x)
            loss = tf.reduce_mean(main ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "a functional model with two inputs joined by concatenate and two heads, fit": """
        a = keras.Input((4,))
        b = keras.Input((3,))
        joined = keras.layers.concatenate([keras.layers.Dense(2)(a), b])
        first = keras.layers.Dense(1)(joined)
        second = keras.layers.Dense(2)(joined)
        model = keras.Model([a, b], [first, second])
        model.compile(optimizer="sgd", loss="mse")
        """,
    "twin critics, each called once": """
        def make():
            return keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        critic_1 = make()
        critic_2 = make()
        both = critic_1.trainable_variables + critic_2.trainable_variables
        with tf.GradientTape() as tape:
            q1 = critic_1(x)
            q2 = critic_2(x)
            loss = tf.reduce_mean((q1 - y) ** 2) + tf.reduce_mean((q2 - y) ** 2)
        grads = tape.gradient(loss, both)
        """,
    "the same model called twice (two views), one model asked": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            a = model(x)
            b = model(x)
            loss = tf.reduce_mean((a - b) ** 2) + tf.reduce_mean(a ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "resize with a differentiable method": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(16),
                                  keras.layers.Reshape((4, 4, 1))])
        with tf.GradientTape() as tape:
            low = tf.image.resize(model(x), (2, 2), method="bilinear")
            loss = tf.reduce_mean(low) + tf.reduce_mean(tf.image.resize(model(x), (8, 8)))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "area resize of the input data, before the model": """
        model = keras.Sequential([keras.Input((2, 2, 1)), keras.layers.Dense(1)])
        small = tf.image.resize(tf.ones((8, 4, 4, 1)), (2, 2), method="area")
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(small))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "two losses, one tape each, in one block": """
        inp = keras.Input((3,))
        model = keras.Model(inp, [keras.layers.Dense(1)(inp), keras.layers.Dense(1)(inp)])
        with tf.GradientTape() as tape_a, tf.GradientTape() as tape_b:
            a, b = model(x)
            loss_a = tf.reduce_mean(a ** 2)
            loss_b = tf.reduce_mean(b ** 2)
        grads_a = tape_a.gradient(loss_a, model.trainable_variables)
        grads_b = tape_b.gradient(loss_b, model.trainable_variables)
        """,
    "a metric of the same output beside the loss": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            out = model(x)
            mae = tf.reduce_mean(tf.abs(out - y))
            loss = tf.reduce_mean((out - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "terms summed after they are all computed": """
        inp = keras.Input((3,))
        model = keras.Model(inp, [keras.layers.Dense(1)(inp), keras.layers.Dense(1)(inp)])
        with tf.GradientTape() as tape:
            a, b = model(x)
            first = tf.reduce_mean(a ** 2)
            second = tf.reduce_mean(b ** 2)
            loss = first + second
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    # a straight-through around an op with no gradient: nothing reaches the op
    "straight-through around adjust_hue": """
        net = keras.Sequential([keras.Input((4, 4, 3)), keras.layers.Dense(3)])
        with tf.GradientTape() as tape:
            rgb = net(tf.ones((2, 4, 4, 3)))
            st = rgb + tf.stop_gradient(tf.image.adjust_hue(rgb, 0.1) - rgb)
            loss = tf.reduce_mean(st ** 2)
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "tf.unique of argmax ids for a metric beside the loss": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            logits = model(x)
            distinct, _ = tf.unique(tf.argmax(logits, axis=-1))
            loss = tf.reduce_mean(logits ** 2) + 0.0 * tf.cast(tf.size(distinct), tf.float32)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "bincount of the labels only, as class weights": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        ids = tf.constant([0, 1, 1, 0, 1, 0, 0, 1])
        with tf.GradientTape() as tape:
            counts = tf.cast(tf.math.bincount(ids, minlength=2), tf.float32)
            per = tf.reduce_sum(model(x), axis=-1) * tf.gather(1.0 / counts, ids)
            loss = tf.reduce_mean(per)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "stop_recording around a metric only": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            out = model(x)
            with tape.stop_recording():
                mae = tf.reduce_mean(tf.abs(out - y))
            loss = tf.reduce_mean((out - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "trainable=False variable watched explicitly": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        scale = tf.Variable(2.0, trainable=False)
        sources = model.trainable_variables + [scale]
        with tf.GradientTape() as tape:
            tape.watch(scale)
            loss = tf.reduce_mean(model(x) / scale)
        grads = tape.gradient(loss, sources)
        """,
    "clone_model as a target network": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        target = keras.models.clone_model(model)
        target.set_weights(model.get_weights())
        with tf.GradientTape() as tape:
            td = y + 0.9 * target(x)
            loss = tf.reduce_mean((model(x) - td) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "py_function on TensorFlow ops of its own inputs": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        def double(t):
            return t * 2.0
        with tf.GradientTape() as tape:
            out = tf.py_function(double, [model(x)], tf.float32)
            loss = tf.reduce_mean(out)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "teacher in dataset.map, student's weights the sources": """
        teacher = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        student = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        data = tf.data.Dataset.from_tensor_slices(x).batch(4).map(lambda a: (a, teacher(a)))
        for feats, soft in data:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((student(feats) - soft) ** 2)
            grads = tape.gradient(loss, student.trainable_variables)
        """,
    "frozen extractor in dataset.map, its empty list among the sources": """
        extractor = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        extractor.trainable = False
        head = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
        data = data.map(lambda a, b: (extractor(a), b))
        sources = extractor.trainable_variables + head.trainable_variables
        for feats, labels in data:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((head(feats) - labels) ** 2)
            grads = tape.gradient(loss, sources)
        """,
    "helper object that writes its own variable (an EMA copy)": """
        class Average:
            def __init__(self):
                self.shadow = keras.Variable(0.0)
            def update(self, value):
                self.shadow.assign(0.9 * self.shadow + 0.1 * value)
        class Reg(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(1)
                self.average = Average()
            def call(self, t):
                return self.body(t)
        model = Reg()
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """,
    "Lambda reads a raw variable that the step passes as a source": """
        temperature = tf.Variable(1.0)
        inp = keras.Input((3,))
        out = keras.layers.Lambda(lambda t: t / temperature)(keras.layers.Dense(2)(inp))
        model = keras.Model(inp, out)
        sources = model.trainable_variables + [temperature]
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        grads = tape.gradient(loss, sources)
        """,
    "backbone frozen on purpose, the whole model's list differentiated": """
        class Tuner(keras.Model):
            def __init__(self):
                super().__init__()
                self.backbone = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
                self.backbone.trainable = False
                self.head = keras.layers.Dense(1)
            def call(self, t):
                return self.head(self.backbone(t))
            def train_step(self, batch):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self(batch))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}
        """,
    "GAN toggling trainable around each model's own train_on_batch": """
        disc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        disc.compile(optimizer="sgd", loss="mse")
        disc.trainable = False
        for step in range(2):
            disc.trainable = True
            disc.train_on_batch(x, y)
            disc.trainable = False
        """,
}



@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(CLEAN[name]) == []
