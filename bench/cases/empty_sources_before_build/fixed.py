# summary: the model is built (an Input) before its variables are listed
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(26)
x = rng.normal(size=(32, 3)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(4, activation="relu", name="d1"),
                             tf.keras.layers.Dense(1, name="d2")], name="perceptron")
optimizer = tf.keras.optimizers.SGD(0.1)
params = list(model.trainable_variables)

for _ in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params, strict=False))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
