# summary: a traced step keeps its (gradient, variable) pairs in a list, logs each gradient's norm by walking it, then hands the same list to apply_gradients; a list can be read twice, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(9)

rng = np.random.default_rng(9)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x[:, 0] > 0).astype("int32")

model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu", name="zl_hidden"),
                             tf.keras.layers.Dense(2, name="zl_out")], name="listed")
optimizer = tf.keras.optimizers.Adam(1e-2)
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = xent(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    pairs = list(zip(grads, model.trainable_variables))
    norms = [tf.norm(g) for g, _ in pairs]
    optimizer.apply_gradients(pairs)
    return loss, tf.add_n(norms)


before = [v.numpy().copy() for v in model.trainable_variables]
train_step(x, y)
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables))
