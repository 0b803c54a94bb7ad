# source: https://github.com/facebookresearch/adaptive-span/issues/11
# cause: non-differentiable-op
# weights: span_reader/span_attention/span
# mode: fit
# summary: a sequence model's attention layer learns how far back each position may look (an adaptive span); the span enters only through a hard mask tf.cast(distance <= span, float32), a comparison with no gradient, so in fit the projections train while the span gets no gradient ("Gradients do not exist") and stays at its initial value
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
sequences = rng.normal(size=(64, 8, 4)).astype("float32")
labels = sequences[:, -3:, 0].sum(axis=1, keepdims=True).astype("float32")


class SpanAttention(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
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
        window = tf.cast(distance <= self.span, tf.float32)  # expect: non-differentiable-op primary
        weights = tf.nn.softmax(tf.matmul(self.query(x), self.key(x), transpose_b=True))
        weights = weights * causal * window
        weights = weights / (tf.reduce_sum(weights, axis=-1, keepdims=True) + 1e-6)
        return tf.matmul(weights, self.value(x))


model = keras.Sequential([keras.Input((8, 4)), SpanAttention(name="span_attention"),
                          keras.layers.Flatten(), keras.layers.Dense(1, name="head")],
                         name="span_reader")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
span = model.get_layer("span_attention").span
model.fit(sequences, labels, epochs=2, batch_size=16, verbose=0)
print("span after fit:", float(span.numpy()))
