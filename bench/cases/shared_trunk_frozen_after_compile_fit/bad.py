# source: https://github.com/keras-team/keras/issues/7965
# cause: sources-mismatch
# rule: TM117
# weights: trunk/t1/kernel, trunk/t1/bias
# mode: fit
# summary: a shared trunk feeds a main model and an auxiliary probe; the script compiles the main model, then freezes the trunk so that the probe trains its head alone, and trains the main model afterwards; Keras 2 kept the flags compile saw, Keras 3 reads them when fit traces, so the main model's fit never changes the trunk
# lint: no (the flag is read when each model's train step is traced: only the order at run time shows it)
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

trunk.trainable = False  # expect: sources-mismatch primary
probe = tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid",
                                                     name="probe_out")(trunk(inputs)), name="probe")
probe.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy")

start = [w.numpy().copy() for w in trunk.weights]
main.fit(x, target, epochs=2, batch_size=16, verbose=0)  # accept: sources-mismatch
probe.fit(x, probe_target, epochs=2, batch_size=16, verbose=0)
print("trunk changed:", [bool(np.any(s != w.numpy())) for s, w in zip(start, trunk.weights)])
