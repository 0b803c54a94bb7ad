# summary: the per-category totals are summed with tf.math.unsorted_segment_sum, whose gradient is a gather, so every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(10920)
features = rng.normal(size=(40, 5)).astype("float32")
category = rng.integers(0, 4, size=40).astype("int32")
category_totals = rng.uniform(2.0, 8.0, size=(4,)).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="bin_hidden"),
                          keras.layers.Dense(1, activation="softplus", name="bin_mass")], name="bin_model")

with tf.GradientTape() as tape:
    masses = model(features, training=True)[:, 0]
    totals = tf.math.unsorted_segment_sum(masses, category, num_segments=4)
    loss = tf.reduce_mean(tf.square(totals - category_totals))
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
