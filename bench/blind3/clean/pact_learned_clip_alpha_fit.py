# source: https://github.com/ModelTC/MQBench/issues/72
# summary: a PACT activation clips the ReLU output at a learned ceiling with tf.clip_by_value(x, 0, alpha); clip_by_value has a gradient for its bound, so alpha trains with the Dense layers in fit even though the activation looks like a hard clamp
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class PACT(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.alpha = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(0.5),
                                     name="alpha")

    def call(self, inputs):
        return tf.clip_by_value(inputs, 0.0, self.alpha)


rng = np.random.default_rng(8)
x = rng.normal(size=(128, 4)).astype("float32")
y = (2.0 * np.maximum(x[:, :1], 0) + 0.1 * x[:, 1:2]).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, name="pre"),
                             PACT(name="pact"), tf.keras.layers.Dense(1, name="out")],
                            name="pact_net")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
