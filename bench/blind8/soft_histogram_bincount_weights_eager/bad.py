# source: https://github.com/jax-ml/jax/issues/10920
# cause: non-differentiable-op
# rule: -
# weights: bin_model/bin_hidden/kernel, bin_model/bin_hidden/bias, bin_model/bin_mass/kernel, bin_model/bin_mass/bias
# mode: eager
# summary: a model predicts a mass for each event and the loss compares the per-category totals with targets; the totals come from tf.math.bincount(category_ids, weights=masses), whose DenseBincount op has no registered gradient, so tape.gradient raises LookupError
# lint: no (bincount of integer ids is common and correct; passing trained values as its weights is the cut)
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
    totals = tf.math.bincount(category, weights=masses, minlength=4, maxlength=4)  # expect: non-differentiable-op primary
    loss = tf.reduce_mean(tf.square(totals - category_totals))
grads = tape.gradient(loss, model.trainable_variables)
print([g is None for g in grads])
