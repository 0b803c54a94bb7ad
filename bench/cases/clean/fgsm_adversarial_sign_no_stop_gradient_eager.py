# summary: adversarial training (FGSM) written eagerly without stop_gradient: x_adv = x + eps * tf.sign(input gradient) is made inside the training tape from an inner tape's gradient (the sign's zero gradient is what FGSM intends), the loss on x_adv trains the weights
# source: https://keras.io/examples/vision/adversarial_robustness/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(45)
rng = np.random.default_rng(45)
x = tf.constant(rng.normal(size=(16, 10)).astype("float32"))
y = tf.constant(rng.integers(0, 3, size=(16,)).astype("int32"))
model = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(3, name="logits")])
opt = keras.optimizers.SGD(0.05)
scce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
with tf.GradientTape() as tape:
    with tf.GradientTape() as inner:
        inner.watch(x)
        clean_loss = scce(y, model(x, training=True))
    x_adv = x + 0.1 * tf.sign(inner.gradient(clean_loss, x))
    loss = scce(y, model(x_adv, training=True))
grads = tape.gradient(loss, model.trainable_weights)
opt.apply_gradients(zip(grads, model.trainable_weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
