# summary: a plain @tf.function training step (graph mode)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(113)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out")], name="mlp")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss, grads


for _ in range(2):
    loss, grads = train_step(x, y)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
