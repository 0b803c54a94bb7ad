# summary: the span enters through the soft ramp mask of the adaptive-span paper, clip((span - distance) / ramp + 1, 0, 1), which is differentiable in the span near the window's edge, so fit changes the span with every other weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
sequences = rng.normal(size=(64, 8, 4)).astype("float32")
labels = sequences[:, -3:, 0].sum(axis=1, keepdims=True).astype("float32")


class SpanAttention(keras.layers.Layer):
    def __init__(self, ramp=2.0, **kwargs):
        super().__init__(**kwargs)
        self.ramp = ramp
        self.query = keras.layers.Dense(4, name="query")
        self.key = keras.layers.Dense(4, name="key")
        self.value = keras.layers.Dense(4, name="value")

    def build(self, input_shape):
        self.span = self.add_weight(shape=(), initializer=keras.initializers.Constant(3.0),
                                    name="span")

    def call(self, x):
        steps = tf.range(tf.shape(x)[1])
        distance = tf.cast(steps[:, None] - steps[None, :], tf.float32)
        causal = tf.cast(distance >= 0.0, tf.float32)
        window = tf.clip_by_value((self.span - distance) / self.ramp + 1.0, 0.0, 1.0)
        weights = tf.nn.softmax(tf.matmul(self.query(x), self.key(x), transpose_b=True))
        weights = weights * causal * window
        weights = weights / (tf.reduce_sum(weights, axis=-1, keepdims=True) + 1e-6)
        return tf.matmul(weights, self.value(x))


model = keras.Sequential([keras.Input((8, 4)), SpanAttention(name="span_attention"),
                          keras.layers.Flatten(), keras.layers.Dense(1, name="head")],
                         name="span_reader")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(sequences, labels, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 9
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
