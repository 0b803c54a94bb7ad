"""Seed 000: a custom loss that leaves TensorFlow for NumPy, under a tape that watches nothing.

A Stack Exchange user trained a small network on spin configurations with a custom energy
loss; every gradient came back None. Three things cut the path: `.numpy()` on the model output
(followed by np.sqrt / np.copy / np.real / np.dot), Python `if`s on tensor comparisons, and a
`GradientTape(watch_accessed_variables=False)` that only watches the input.

Run: python -m tapemagic run demo/seed000_numpy_in_loss.py
"""

import numpy as np
import tensorflow as tf

tf.random.set_seed(0)
nsites, nsamples = 4, 8
model = tf.keras.Sequential([
    tf.keras.layers.Input((nsites,)),
    tf.keras.layers.Dense(8, activation="tanh", name="hidden"),
    tf.keras.layers.Dense(1, name="amplitude"),
])
configs = tf.constant(np.random.default_rng(0).choice([-1.0, 1.0], (nsamples, nsites)),
                      dtype=tf.float32)


def energy(configs, out):
    psi = out.numpy()[:, 0]
    norm = np.sqrt(np.dot(psi, psi))
    amp = np.copy(psi) / norm
    total = 0.0
    for k, config in enumerate(configs):
        if tf.reduce_all(config == configs[0]):
            total += amp[k] ** 2
        elif out[k, 0] != 0:
            total += 0.5 * amp[k] ** 2
    return tf.constant(np.real(total / nsamples), dtype=tf.float32)


optimizer = tf.keras.optimizers.SGD(learning_rate=1e-3)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(configs)
    out = model(configs)
    loss = energy(configs, out)
gradients = tape.gradient(loss, model.trainable_weights)
print("gradients:", [None if g is None else g.shape for g in gradients])
