# source: https://github.com/keras-team/keras/issues/2711
# summary: a binary classifier ends in Dense(2, activation="softmax") with one-hot labels and categorical cross-entropy; unlike a one-unit softmax, two units give a real distribution, and fit changes every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2711)
x = rng.normal(size=(160, 6)).astype("float32")
y = tf.keras.utils.to_categorical((x[:, 0] - x[:, 2] > 0).astype("int32"), 2)

model = tf.keras.Sequential([
    tf.keras.Input((6,)),
    tf.keras.layers.Dense(8, activation="relu", name="hidden"),
    tf.keras.layers.Dense(2, activation="softmax", name="probs"),
], name="binary_softmax")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="categorical_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
