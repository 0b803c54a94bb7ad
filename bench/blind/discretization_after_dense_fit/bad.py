# source: https://github.com/keras-team/keras/issues/20981
# cause: non-differentiable-op|integer-dtype
# weights: bucketed/proj/kernel, bucketed/proj/bias
# mode: fit
# summary: a Discretization layer buckets the output of a learned Dense layer inside the model trained by fit; the bucket ids carry no gradient, so the projection never trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(20981)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")
model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(2, name="proj"),
    tf.keras.layers.Discretization(bin_boundaries=[-0.5, 0.0, 0.5],  # expect: non-differentiable-op|integer-dtype primary
                                   output_mode="one_hot", name="bucket"),
    tf.keras.layers.Flatten(name="flat"),
    tf.keras.layers.Dense(1, activation="sigmoid", name="out"),
], name="bucketed")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
