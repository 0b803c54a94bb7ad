"""Static hints for families the third blind split showed lint missing, and their look-alikes.

TF-free: sources are parsed, never run. Each family is a mechanism, not a program: a Keras
model handed to ``tf.map_fn`` as its function is run per element like a function (so
``back_prop=False`` in a traced step cuts it); a ``tf.Module`` collects ``tf.Variable``s only,
and a ``keras.Variable`` is none; ``fit`` differentiates the model's trainable variables only,
so a trainable variable a compiled loss closes over never trains. Every broken shape has
correct look-alikes that stay silent. Modelled on public reports (cited per shape; our code).
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD = {
    # tf.map_fn(encoder, frames, back_prop=False) in a tf.function: while_v2 wraps the loop's
    # results in stop_gradient (tensorflow/models#8090)
    "map_fn over a model with back_prop=False, traced": ("""
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch, back_prop=False)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, enc.trainable_variables + head.trainable_variables)
        step(x)
        """, [("TM401", 6)]),
    # keras.Variable attributes of a tf.Module: module.trainable_variables is empty
    # (keras-team/keras#20095)
    "keras.Variable kept by a tf.Module trainer": ("""
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = keras.Variable(np.zeros((3, 1), "float32"))
                self.b = keras.Variable(0.0)
            def __call__(self, v):
                return tf.matmul(v, self.w) + self.b
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """, [("TM116", 4), ("TM116", 5), ("TM116", 11)]),
    # a learned noise level made by the loss factory and closed over (keras-team/keras#12503)
    "trainable variable closed over by a compiled loss": ("""
        def nll():
            log_noise = tf.Variable(0.0, trainable=True)
            def loss(t, p):
                return tf.reduce_mean(tf.square(t - p) * tf.exp(-log_noise) + log_noise)
            loss.log_noise = log_noise
            return loss
        fn = nll()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=fn)
        print(fn.log_noise.numpy())
        model.fit(x, y, epochs=1)
        """, [("TM114", 2)]),
    "trainable variable at module level read by a compiled loss function": ("""
        temperature = tf.Variable(1.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p / temperature))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        model.fit(x, y, epochs=1)
        """, [("TM114", 1)]),
}

CLEAN = {
    "map_fn over a model, gradients flow": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, enc.trainable_variables + head.trainable_variables)
        step(x)
        """,
    # eagerly the loop is plain Python and back_prop does nothing
    "map_fn over a model with back_prop=False, eager": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            e = tf.map_fn(enc, x, back_prop=False)
            loss = tf.reduce_mean(e)
        grads = tape.gradient(loss, enc.trainable_variables)
        """,
    # a frozen feature extractor mapped without backprop, only the head trained
    "map_fn back_prop=False over a frozen encoder, head trained": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch, back_prop=False)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, head.trainable_variables)
        step(x)
        """,
    "tf.Variable kept by a tf.Module trainer": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(np.zeros((3, 1), "float32"))
            def __call__(self, v):
                return tf.matmul(v, self.w)
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """,
    "keras.Variable of a tf.Module passed by name": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = keras.Variable(np.zeros((3, 1), "float32"))
            def __call__(self, v):
                return tf.matmul(v, self.w)
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, [fitter.w])
        """,
    "non-trainable keras.Variable beside tf.Variables in a tf.Module": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(np.zeros((3, 1), "float32"))
                self.scale = keras.Variable(2.0, trainable=False)
            def __call__(self, v):
                return tf.matmul(v, self.w) * self.scale
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """,
    # class weights held in a variable by a loss factory: a constant, not a weight to learn
    "class weights variable closed over by a compiled loss": """
        def weighted(weights):
            w = tf.Variable(weights)
            def loss(t, p):
                return tf.reduce_mean(tf.square(t - p) * w)
            return loss
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=weighted([1.0]))
        model.fit(x, y, epochs=1)
        """,
    # a KL weight a callback anneals: written by assign, not trained
    "annealed loss weight variable written by a callback": """
        beta = tf.Variable(0.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p)) * beta
        class Anneal(keras.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                beta.assign(min(1.0, epoch / 10))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        model.fit(x, y, epochs=1, callbacks=[Anneal()])
        """,
    "closed-over variable trained by its own optimizer step": """
        log_noise = tf.Variable(0.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p) * tf.exp(-log_noise) + log_noise)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        opt = keras.optimizers.Adam()
        def tune():
            with tf.GradientTape() as tape:
                value = loss(y, model(x))
            opt.apply_gradients(zip(tape.gradient(value, [log_noise]), [log_noise]))
        model.fit(x, y, epochs=1)
        tune()
        """,
    # the learned noise as a weight of the model (the fix): fit trains it
    "learned noise as a weight of a subclassed model": """
        class Noisy(keras.Model):
            def __init__(self):
                super().__init__()
                self.mean = keras.layers.Dense(1)
                self.log_noise = self.add_weight(shape=(), initializer="zeros")
            def call(self, v):
                return self.mean(v)
            def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                             training=True):
                return tf.reduce_mean(tf.square(y - y_pred) * tf.exp(-self.log_noise))
        model = Noisy()
        model.compile(optimizer="adam")
        model.fit(x, y, epochs=1)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_broken_shape_is_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
