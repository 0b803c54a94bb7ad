# source: https://github.com/keras-team/keras-io/pull/364
# summary: a top-1 switch layer in a model trained by fit: argmax picks each row's expert (an index only) and the expert output is multiplied by its router probability, so the router trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(364)
x = rng.normal(size=(128, 4)).astype("float32")
y = np.where(x[:, :1] > 0, x[:, 1:2], -x[:, 2:3]).astype("float32")


class Switch(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.router = tf.keras.layers.Dense(2, name="router")
        self.experts = [tf.keras.layers.Dense(1, name=f"expert{i}") for i in range(2)]

    def call(self, inputs):
        probs = tf.nn.softmax(self.router(inputs))
        choice = tf.argmax(probs, axis=-1)
        outputs = tf.stack([e(inputs) for e in self.experts], axis=1)
        gate = tf.gather(probs, choice, batch_dims=1)[:, None]
        return gate * tf.gather(outputs, choice, batch_dims=1)


model = tf.keras.Sequential([tf.keras.Input((4,)), Switch(name="switch")], name="moe")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
