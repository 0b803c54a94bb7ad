# summary: a sequence layer builds its fixed sinusoidal position table once under tf.init_scope from NumPy (no weight is read inside the scope) and adds it to the inputs; the dense layers after it change under fit
# source: https://www.tensorflow.org/api_docs/python/tf/init_scope
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class FixedPositions(keras.layers.Layer):
    def call(self, inputs):
        steps = np.arange(inputs.shape[1], dtype="float32")[:, None]
        with tf.init_scope():
            table = tf.constant(np.sin(steps * np.linspace(0.1, 1.0, inputs.shape[-1], dtype="float32")))
        return inputs + table


rng = np.random.default_rng(21)
x = rng.normal(size=(32, 10, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")

model = keras.Sequential([keras.Input((10, 4)),
                          FixedPositions(name="fixed_positions"),
                          keras.layers.Flatten(),
                          keras.layers.Dense(8, activation="tanh", name="fixed_hidden"),
                          keras.layers.Dense(1, name="fixed_head")], name="fixed_pos_model")
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
