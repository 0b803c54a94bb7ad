# source: https://github.com/tensorflow/tensorflow/issues/16504
# cause: integer-dtype|non-differentiable-op
# rule: TM202
# weights: refiner/enc/kernel, refiner/enc/bias, refiner/step/kernel, refiner/step/bias
# mode: function
# summary: a tf.function step refines a state in tf.while_loop whose body rounds it through tf.int32
# lint: yes
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
    state = tf.cast(tf.cast(state * 100.0, tf.int32), tf.float32) / 100.0  # expect: integer-dtype|non-differentiable-op primary
    return i + 1, state


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        _, refined = tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), enc(features)])
        loss = tf.reduce_mean(tf.square(refined - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


print(float(train_step(x, y)))
