# summary: the cross-channel normalisation is written with elementary ops (square, sum over channels, power), which are twice differentiable, so the double-backprop penalty reaches every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22825)
images = rng.uniform(size=(8, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 4, size=8).astype("int32")

conv = keras.layers.Conv2D(6, 3, padding="same", activation="relu", name="cifar_conv")
head = keras.layers.Dense(4, name="cifar_logits")
conv.build((None, 8, 8, 3))
head.build((None, 8 * 8 * 6))
variables = conv.trainable_variables + head.trainable_variables


def logits_of(x):
    h = conv(x)
    h = h / tf.pow(1.0 + 1e-3 * tf.reduce_sum(tf.square(h), axis=-1, keepdims=True), 0.75)
    return head(tf.reshape(h, (-1, 8 * 8 * 6)))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as input_tape:
            input_tape.watch(x)
            xent = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits_of(x), from_logits=True))
        input_grad = input_tape.gradient(xent, x)
        loss = xent + 0.1 * tf.reduce_mean(tf.reduce_sum(tf.square(input_grad), axis=[1, 2, 3]))
    return tape.gradient(loss, variables)


grads = train_step(tf.constant(images), tf.constant(labels))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
