# source: https://github.com/tensorflow/tensorflow/issues/1093
# summary: a tf.function step whose tf.while_loop refines a state with a Dense layer; the loop counter is an int, the state stays float
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1093)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 4)).astype("float32")
enc = tf.keras.layers.Dense(4, name="enc")
step = tf.keras.layers.Dense(4, activation="tanh", name="step")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), enc, step], name="loop_net")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        def body(i, state):
            return i + 1, state + tf.cast(i + 1, tf.float32) * 0.1 * step(state)

        _, refined = tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), enc(features)])
        loss = tf.reduce_mean(tf.square(refined - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


before = [w.numpy().copy() for w in model.trainable_weights]
print(float(train_step(x, y)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
