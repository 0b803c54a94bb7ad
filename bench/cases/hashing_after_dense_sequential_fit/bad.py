# source: https://github.com/keras-team/tf-keras/issues/175
# cause: integer-dtype|non-differentiable-op
# rule: TM202
# weights: bucketed/proj/kernel, bucketed/proj/bias
# mode: fit
# summary: a Sequential model hashes a learned Dense projection into buckets (Hashing) and one-hot encodes them (CategoryEncoding) before its head, and is trained by fit; the hash ids carry no gradient, so the projection never trains
# lint: no (a Keras preprocessing layer's ops are only seen when it runs)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(175)
features = rng.normal(size=(64, 4)).astype("float32")
targets = rng.normal(size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(1, name="proj"),
    tf.keras.layers.Hashing(num_bins=8),  # expect: integer-dtype|non-differentiable-op primary
    tf.keras.layers.CategoryEncoding(num_tokens=8, output_mode="one_hot"),  # accept: integer-dtype|non-differentiable-op
    tf.keras.layers.Dense(1, name="head"),
], name="bucketed")
model.compile(optimizer="adam", loss="mse")
before = model.get_layer("proj").kernel.numpy().copy()
model.fit(features, targets, epochs=1, batch_size=16, verbose=0)
print("proj changed:", bool(np.any(before != model.get_layer("proj").kernel.numpy())))
