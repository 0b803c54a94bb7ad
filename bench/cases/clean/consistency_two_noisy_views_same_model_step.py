# summary: a consistency regulariser runs the same model twice on the same batch, each time with its own Gaussian noise, and penalises the difference of the two predictions beside a supervised loss; the two calls look alike but the noise draws differ, so the difference is not identically zero and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
inputs = rng.normal(size=(32, 5)).astype("float32")
labels = rng.normal(size=(32, 1)).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="cons_hidden"),
                             tf.keras.layers.Dense(1, name="cons_out")], name="consistent")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        first = model(batch + 0.1 * tf.random.normal(tf.shape(batch)), training=True)
        second = model(batch + 0.1 * tf.random.normal(tf.shape(batch)), training=True)
        consistency = tf.reduce_mean(tf.square(first - second))
        loss = tf.reduce_mean(tf.square(model(batch, training=True) - target)) + consistency
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(inputs, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
