# summary: the loop body keeps the refined state in float32
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16504)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 4)).astype("float32")
enc = tf.keras.layers.Dense(4, name="enc")
step = tf.keras.layers.Dense(4, activation="tanh", name="step")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), enc, step], name="refiner")
optimizer = tf.keras.optimizers.SGD(0.05)


def body(i, state):
    state = state + 0.5 * step(state)
    return i + 1, state


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        _, refined = tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), enc(features)])
        loss = tf.reduce_mean(tf.square(refined - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


before = [w.numpy().copy() for w in model.trainable_weights]
print(float(train_step(x, y)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
