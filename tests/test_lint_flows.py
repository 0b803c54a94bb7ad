"""Static hints that follow values where the checker had not followed them (issue 33, section 6).

TF-free: sources are parsed, never run. Each broken shape is hinted at the line to change; its
correct look-alike stays silent in test_lint_flows_clean.py. The facts are TensorFlow's and
Keras': which ops have no gradient registry entry at all (the generated catalog: the gradient
call raises), what ``tf.py_function`` differentiates (its ``inp`` only), where ``dataset.map``
runs its function (in the input pipeline, off every tape), what Keras 3 tracks on a layer
(layers and variables, not helper objects nor what a ``Lambda`` reads), and that
``trainable = False`` empties a model's trainable list. Modelled on public reports (cited per
shape; our own code).
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD = {
    # an op with no registry entry on one of two paths: the whole gradient call raises
    # (tensorflow/tensorflow#126083, tensorflow/probability#545)
    "tf.linalg.lu beside a differentiable path": ("""
        w = tf.Variable(tf.eye(3))
        with tf.GradientTape() as tape:
            z = x @ w
            lu, _ = tf.linalg.lu(w)
            loss = tf.reduce_sum(z ** 2) - tf.reduce_sum(tf.linalg.diag_part(lu))
        grads = tape.gradient(loss, [w])
        """, [("TM201", 4)]),
    "tf.image.adjust_saturation beside a pixel loss": ("""
        net = keras.Sequential([keras.Input((4, 4, 1)), keras.layers.Dense(3)])
        with tf.GradientTape() as tape:
            rgb = net(tf.ones((2, 4, 4, 1)))
            loss = tf.reduce_mean(rgb) + tf.reduce_mean(tf.image.adjust_saturation(rgb, 1.5))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM201", 4)]),
    # the weighted form of bincount sums the weights in DenseBincount, which has no gradient
    # (tensorflow/tensorflow#44535)
    "bincount with weights=losses": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        ids = tf.constant([0, 1, 1, 0, 1, 0, 0, 1])
        with tf.GradientTape() as tape:
            losses = tf.reduce_sum(model(x), axis=-1)
            loss = tf.reduce_sum(tf.math.bincount(ids, weights=losses, minlength=2))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 5)]),
    # the forward pass inside tape.stop_recording(): the block is the line to change
    # (tensorflow/tensorflow#47064)
    "stop_recording around the forward pass": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            with tape.stop_recording():
                out = model(x)
            loss = tf.reduce_mean((out - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM103", 3)]),
    # a non-trainable variable joined to the model's list (tensorflow/tensorflow#23639)
    "trainable=False variable inside a joined source list": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        scale = tf.Variable(2.0, trainable=False)
        sources = model.trainable_variables + [scale]
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) / scale)
        grads = tape.gradient(loss, sources)
        """, [("TM107", 2)]),
    # fast weights assigned into a cloned model (hereismari/tensorflow-maml#3)
    "assign into clone_model's weights": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        fast = keras.models.clone_model(model)
        with tf.GradientTape() as outer:
            for f, w in zip(fast.trainable_variables, model.trainable_variables):
                f.assign(w * 0.5)
            loss = tf.reduce_mean(fast(x))
        grads = outer.gradient(loss, model.trainable_variables)
        """, [("TM402", 5)]),
    # a py_function's body reads a layer itself (tensorflow/tensorflow#1095)
    "py_function body closes over a layer": ("""
        dense = keras.layers.Dense(1)
        dense.build((None, 3))
        def route(t):
            return dense(t) * 2.0
        with tf.GradientTape() as tape:
            out = tf.py_function(route, [x], tf.float32)
            loss = tf.reduce_mean(out)
        grads = tape.gradient(loss, dense.trainable_variables)
        """, [("TM104", 6)]),
    "py_function of a bound method reading self's layer": ("""
        class Router(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.expert = keras.layers.Dense(1)
            def _route(self, t):
                return self.expert(t)
            def call(self, inputs):
                return tf.py_function(self._route, [inputs], tf.float32)
        router = Router()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(router(x))
        grads = tape.gradient(loss, router.trainable_variables)
        """, [("TM104", 8)]),
    # an encoder applied in dataset.map runs in the pipeline (rstudio/tfdatasets#30)
    "encoder applied in dataset.map": ("""
        encoder = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        head = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
        data = data.map(lambda a, b: (encoder(a), b))
        sources = encoder.trainable_variables + head.trainable_variables
        for feats, labels in data:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((head(feats) - labels) ** 2)
            grads = tape.gradient(loss, sources)
        """, [("TM103", 4)]),
    # Keras 3 does not track a tf.Module or a plain object on a layer
    # (tensorflow/tensorflow#47264, tensorflow/probability#946)
    "tf.Module holding a variable on a Keras layer": ("""
        class Gain(tf.Module):
            def __init__(self):
                super().__init__()
                self.g = tf.Variable(1.0)
        class Scaled(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.proj = keras.layers.Dense(1)
                self.gain = Gain()
            def call(self, t):
                return self.proj(t) * self.gain.g
        model = keras.Sequential([keras.Input((3,)), Scaled()])
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """, [("TM114", 9)]),
    "helper object holding a keras.Variable on a model": ("""
        class Positive:
            def __init__(self):
                self.raw = keras.Variable(0.5)
            def __call__(self):
                return keras.ops.softplus(self.raw)
        class Reg(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(1)
                self.scale = Positive()
            def call(self, t):
                return self.body(t) * self.scale()
        model = Reg()
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """, [("TM114", 10)]),
    # a raw variable only a Lambda reads (tensorflow/tensorflow#30587)
    "Lambda closes over a raw variable": ("""
        temperature = tf.Variable(1.0)
        inp = keras.Input((3,))
        out = keras.layers.Lambda(lambda t: t / temperature)(keras.layers.Dense(2)(inp))
        model = keras.Model(inp, out)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM115", 1)]),
    # the Keras 2 GAN recipe inside a Keras 3 train_step (KerasKorea/KEKOxTutorial#139)
    "discriminator frozen in __init__ of a custom train_step": ("""
        class GAN(keras.Model):
            def __init__(self):
                super().__init__()
                self.d = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
                self.d.trainable = False
            def train_step(self, batch):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self.d(batch))
                d_vars = self.d.trainable_variables
                self.optimizer.apply_gradients(zip(tape.gradient(loss, d_vars), d_vars))
                return {"loss": loss}
        """, [("TM117", 5)]),
    # ... and at module level, frozen before the model's own first train_on_batch
    "frozen before its own first train_on_batch": ("""
        disc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        disc.compile(optimizer="sgd", loss="mse")
        disc.trainable = False
        disc.train_on_batch(x, y)
        """, [("TM117", 3)]),
    # an option that picks an op with no gradient, inside a helper the step calls
    # (CosmoStat/wf-psf#16): the catalog's keyword facts, read from TensorFlow's own body
    "resize with method='area' in a helper": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(16),
                                  keras.layers.Reshape((4, 4, 1))])
        def downsample(images):
            return tf.image.resize(images, (2, 2), method="area")
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(downsample(model(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4)]),
    "resize with the ResizeMethod.AREA enum, positional": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(16),
                                  keras.layers.Reshape((4, 4, 1))])
        with tf.GradientTape() as tape:
            low = tf.image.resize(model(x), (2, 2), tf.image.ResizeMethod.AREA)
            loss = tf.reduce_mean(low)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4)]),
    # one critic called twice where its twin was meant, the twins' lists joined as sources
    # (ray-project/ray#4103)
    "twin critic: the first critic called twice": ("""
        def make():
            return keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        critic_1 = make()
        critic_2 = make()
        both = critic_1.trainable_variables + critic_2.trainable_variables
        with tf.GradientTape() as tape:
            q1 = critic_1(x)
            q2 = critic_1(x)
            loss = tf.reduce_mean((q1 - y) ** 2) + tf.reduce_mean((q2 - y) ** 2)
        grads = tape.gradient(loss, both)
        """, [("TM104", 8)]),
    # a loss term computed in the tape and never added (tensorflow/tensorflow#48547)
    "value loss computed and left out of the total": ("""
        inp = keras.Input((3,))
        trunk = keras.layers.Dense(4)(inp)
        model = keras.Model(inp, [keras.layers.Dense(2)(trunk), keras.layers.Dense(1)(trunk)])
        with tf.GradientTape() as tape:
            logits, v = model(x)
            advantage = tf.stop_gradient(y - v)
            policy_loss = -tf.reduce_mean(tf.nn.log_softmax(logits)[:, :1] * advantage)
            value_loss = tf.reduce_mean((y - v) ** 2)
            total = policy_loss + 0.0
        grads = tape.gradient(total, model.trainable_variables)
        """, [("TM104", 9)]),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_flow_is_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected
