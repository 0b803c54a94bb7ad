# source: https://github.com/keras-team/keras/issues/4608
# cause: sources-mismatch
# rule: TM114
# weights: gate_scale
# mode: fit
# summary: a learned gate scale is a global tf.Variable that a keras.layers.Lambda closes over; the functional model owns no such weight, so fit never changes it
# lint: no (the variable is made at top level: only the run sees that the Lambda reads it)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)

rng = np.random.default_rng(4608)
x = rng.normal(size=(80, 5)).astype("float32")
y = (3.0 * np.tanh(x @ rng.normal(size=(5, 1)))).astype("float32")

gate_scale = tf.Variable([0.5], name="gate_scale")  # expect: sources-mismatch primary
inputs = tf.keras.Input((5,))
hidden = tf.keras.layers.Dense(6, activation="tanh", name="hidden")(inputs)
gated = tf.keras.layers.Lambda(lambda t: t * gate_scale, name="gate")(hidden)  # accept: sources-mismatch
outputs = tf.keras.layers.Dense(1, name="out")(gated)
model = tf.keras.Model(inputs, outputs, name="gated")
model.compile(optimizer=tf.keras.optimizers.Adam(3e-2), loss="mse")
before = gate_scale.numpy().copy()
model.fit(x, y, epochs=2, batch_size=20, verbose=0)
print("gate scale changed:", bool(np.any(before != gate_scale.numpy())))
