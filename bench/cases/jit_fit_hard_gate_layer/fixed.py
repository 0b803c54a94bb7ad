# summary: compile(jit_compile=True) with a soft (sigmoid) gate: every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(53)
x = rng.normal(size=(64, 5)).astype("float32")
y = x[:, :1] * 2.0 + 0.5


class HardGate(tf.keras.layers.Layer):
    def call(self, inputs):
        return tf.sigmoid(inputs)


inputs = tf.keras.Input((5,))
features = tf.keras.layers.Dense(8, activation="relu", name="features")(inputs)
gate = HardGate(name="hard_gate")(tf.keras.layers.Dense(8, name="gate_logits")(inputs))
outputs = tf.keras.layers.Dense(1, name="head")(features * gate)
model = tf.keras.Model(inputs, outputs, name="gated")
model.compile(optimizer="adam", loss="mse", jit_compile=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
