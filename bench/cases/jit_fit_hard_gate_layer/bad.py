# source: https://github.com/keras-team/keras-cv/issues/759
# cause: non-differentiable-op
# rule: TM201
# weights: gate_logits/kernel, gate_logits/bias
# mode: fit
# summary: compile(jit_compile=True): a custom layer rounds a sigmoid into a hard 0/1 gate, so the gate's Dense never trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(53)
x = rng.normal(size=(64, 5)).astype("float32")
y = x[:, :1] * 2.0 + 0.5


class HardGate(tf.keras.layers.Layer):
    def call(self, inputs):
        return tf.round(tf.sigmoid(inputs))  # expect: non-differentiable-op primary


inputs = tf.keras.Input((5,))
features = tf.keras.layers.Dense(8, activation="relu", name="features")(inputs)
gate = HardGate(name="hard_gate")(tf.keras.layers.Dense(8, name="gate_logits")(inputs))
outputs = tf.keras.layers.Dense(1, name="head")(features * gate)
model = tf.keras.Model(inputs, outputs, name="gated")
model.compile(optimizer="adam", loss="mse", jit_compile=True)
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
