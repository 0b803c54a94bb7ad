# source: https://github.com/keras-team/keras/issues/11430
# summary: a keras.layers.Lambda with no weights of its own (an L2 normalisation) sits between two Dense layers; Lambda layers have no parameters by design, the Dense layers around it are the model's, and fit trains them all
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(11430)
x = rng.normal(size=(96, 5)).astype("float32")
y = (x[:, :1] * x[:, 1:2] > 0).astype("float32")
inputs = tf.keras.Input((5,))
embedded = tf.keras.layers.Dense(8, name="embed")(inputs)
normalised = tf.keras.layers.Lambda(lambda t: tf.math.l2_normalize(t, axis=-1), name="unit")(embedded)
outputs = tf.keras.layers.Dense(1, activation="sigmoid", name="cls")(normalised)
model = tf.keras.Model(inputs, outputs, name="cosine_cls")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
