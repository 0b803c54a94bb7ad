# summary: the gate scale is a weight of a small layer (add_weight), so it is one of the model's trainable weights and fit trains it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)

rng = np.random.default_rng(4608)
x = rng.normal(size=(80, 5)).astype("float32")
y = (3.0 * np.tanh(x @ rng.normal(size=(5, 1)))).astype("float32")


class Gate(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.gate_scale = self.add_weight(name="gate_scale", shape=(1,),
                                          initializer=tf.keras.initializers.Constant(0.5))

    def call(self, inputs):
        return inputs * self.gate_scale


inputs = tf.keras.Input((5,))
hidden = tf.keras.layers.Dense(6, activation="tanh", name="hidden")(inputs)
gated = Gate(name="gate")(hidden)
outputs = tf.keras.layers.Dense(1, name="out")(gated)
model = tf.keras.Model(inputs, outputs, name="gated")
model.compile(optimizer=tf.keras.optimizers.Adam(3e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=20, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
