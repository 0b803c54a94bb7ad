# summary: a Normalization layer adapted on the counts puts the inputs near zero, tanh is not saturated and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52800582)
counts = rng.uniform(5e4, 2e5, size=(128, 3)).astype("float32")
y = (np.log(counts).sum(axis=1, keepdims=True) / 10.0 - 3.5).astype("float32")

norm = tf.keras.layers.Normalization(name="norm")
norm.adapt(counts)
model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    norm,
    tf.keras.layers.Dense(16, activation="tanh", name="hidden"),
    tf.keras.layers.Dense(1, name="out"),
], name="census")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(counts, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
