# summary: the main model trains first, with the trunk trainable; the trunk is frozen only for the probe, compiled after the freeze
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7965)
x = rng.normal(size=(96, 5)).astype("float32")
target = (x @ rng.normal(size=(5, 1))).astype("float32")
probe_target = (x[:, :1] > 0).astype("float32")

trunk = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(6, activation="tanh", name="t1")], name="trunk")
inputs = tf.keras.Input((5,))
main = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="main_out")(trunk(inputs)),
                      name="main")
main.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
start = [w.numpy().copy() for w in main.weights]
main.fit(x, target, epochs=2, batch_size=16, verbose=0)
assert all(np.any(s != w.numpy()) for s, w in zip(start, main.weights))

trunk.trainable = False
probe = tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid",
                                                     name="probe_out")(trunk(inputs)), name="probe")
probe.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy")
frozen = [w.numpy().copy() for w in trunk.weights]
head = [w.numpy().copy() for w in probe.trainable_weights]
probe.fit(x, probe_target, epochs=2, batch_size=16, verbose=0)
assert all(np.all(s == w.numpy()) for s, w in zip(frozen, trunk.weights))
assert all(np.any(s != w.numpy()) for s, w in zip(head, probe.trainable_weights))
