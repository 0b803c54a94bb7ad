# summary: the kernels keep Keras' default random initialisation, so the hidden units differ from the start and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(31)

rng = np.random.default_rng(431799)
x = rng.normal(size=(96, 4)).astype("float32")
y = np.sin(x @ np.array([[1.0], [-0.5], [0.25], [2.0]], dtype="float32")).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="swish", name="h1"),
    tf.keras.layers.Dense(8, activation="swish", name="h2"),
    tf.keras.layers.Dense(1, name="out"),
], name="mlp")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(5):
    train_step(x, y)
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables, strict=True))
