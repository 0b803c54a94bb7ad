# source: https://community.deeplearning.ai/t/how-is-training-finding-different-weights-for-relu-units-that-are-all-initialized-to-0/587380
# summary: only the output layer starts from zeros (kernel_initializer="zeros") while the hidden layer is random; the hidden layer's gradient is zero on the first step only, the output kernel moves at once, and fit changes every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(587380)
x = rng.normal(size=(128, 3)).astype("float32")
y = np.tanh(x @ np.array([[1.0], [-1.5], [0.5]], dtype="float32"))
model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(16, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, kernel_initializer="zeros", name="out"),
], name="zero_head")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
