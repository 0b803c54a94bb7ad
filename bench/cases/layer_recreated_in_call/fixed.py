# summary: the variable is created once, on the first call only
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(43)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class Gate:
    w = None

    def __call__(self, inputs):
        if self.w is None:
            self.w = tf.Variable(tf.ones((inputs.shape[-1], 1)), name="gate_w")
        return inputs @ self.w


gate = Gate()
gate(x)
params = [gate.w]
for _step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(gate(x) - y))
    grads = tape.gradient(loss, params)
    params[0].assign_sub(0.1 * grads[0])
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
