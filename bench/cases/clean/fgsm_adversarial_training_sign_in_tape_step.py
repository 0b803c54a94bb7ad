# summary: adversarial training (FGSM): inside the training tape, an inner tape watches the input, x_adv = x + eps * tf.sign(input gradient) is built under stop_gradient, and the loss on clean and adversarial inputs trains the weights, a @tf.function step
# source: https://www.tensorflow.org/tutorials/generative/adversarial_fgsm
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(44)
rng = np.random.default_rng(44)
x = rng.normal(size=(16, 10)).astype("float32")
y = rng.integers(0, 3, size=(16,)).astype("int32")
model = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(3, name="logits")])
opt = keras.optimizers.Adam(1e-3)
scce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
eps = 0.1


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            inner.watch(xb)
            clean_loss = scce(yb, model(xb, training=True))
        x_grad = inner.gradient(clean_loss, xb)
        x_adv = tf.stop_gradient(xb + eps * tf.sign(x_grad))
        adv_loss = scce(yb, model(x_adv, training=True))
        loss = 0.5 * clean_loss + 0.5 * adv_loss
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return grads


grads = step(tf.constant(x), tf.constant(y))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
