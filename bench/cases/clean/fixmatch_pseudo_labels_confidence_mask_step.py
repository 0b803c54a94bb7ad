# summary: FixMatch: pseudo-labels are tf.argmax of the model's own prediction on a weakly augmented view (computed inside the tape), kept where tf.reduce_max(probs) >= 0.95, as targets for the strongly augmented view, a @tf.function step
# source: https://keras.io/examples/vision/consistency_training/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(32)
rng = np.random.default_rng(32)
xl = rng.normal(size=(8, 10)).astype("float32")
yl = rng.integers(0, 3, size=(8,)).astype("int32")
xu = (rng.normal(size=(16, 10)) * 4).astype("float32")
model = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(3, name="logits")])
opt = keras.optimizers.Adam(1e-3)
scce = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


@tf.function
def step(xl, yl, xu):
    weak = xu + tf.random.normal(tf.shape(xu), stddev=0.05)
    strong = xu * tf.random.uniform(tf.shape(xu), 0.5, 1.5)
    with tf.GradientTape() as tape:
        sup = tf.reduce_mean(scce(yl, model(xl, training=True)))
        probs = tf.nn.softmax(model(weak, training=True))
        pseudo = tf.argmax(probs, axis=-1)
        confident = tf.cast(tf.reduce_max(probs, axis=-1) >= 0.95, tf.float32)
        unsup = tf.reduce_mean(scce(pseudo, model(strong, training=True)) * confident)
        loss = sup + unsup
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return grads


grads = step(xl, yl, xu)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
