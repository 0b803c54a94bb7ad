# summary: call the model (model(x, training=True)) inside the tape; predict is for inference
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(14)
x = rng.normal(size=(32, 6)).astype("float32")
labels = tf.one_hot(rng.integers(0, 3, size=32), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="dense"),
                             tf.keras.layers.Dense(3, activation="softmax", name="cls")],
                            name="net")
optimizer = tf.keras.optimizers.Adam(1e-2)

with tf.GradientTape() as tape:
    pred = model(x, training=True)
    loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, pred))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
print(float(loss))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
