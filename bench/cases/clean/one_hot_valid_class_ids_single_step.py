# summary: a classifier's step one-hots integer class ids (0..depth-1) with tf.one_hot inside the tape and writes the cross-entropy by hand; run once as a smoke test; every code is in range, so every target row holds a one and every weight gets a gradient
# source: https://www.tensorflow.org/api_docs/python/tf/one_hot
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
features = rng.normal(size=(40, 5)).astype("float32")
class_ids = rng.integers(0, 3, size=40).astype("int32")

model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(10, activation="relu", name="hidden"),
                          keras.layers.Dense(3, activation="softmax", name="probs")], name="classifier")


@tf.function
def train_step(xb, ids):
    with tf.GradientTape() as tape:
        targets = tf.one_hot(ids, 3)
        probs = model(xb, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(targets * tf.math.log(probs + 1e-7), axis=-1))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(features, class_ids)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
