# summary: nothing clears the tape (each step opens a fresh GradientTape, so there is no stale gradient to reset), the loss stays recorded and every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41696)
x = rng.normal(size=(32, 7)).astype("float32")
y = rng.integers(0, 4, size=(32,))

model = tf.keras.Sequential([tf.keras.Input((7,)),
                             tf.keras.layers.Dense(10, activation="relu", name="tag_hidden"),
                             tf.keras.layers.Dense(4, name="tag_out")], name="tagger")
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = xent(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss, grads


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
