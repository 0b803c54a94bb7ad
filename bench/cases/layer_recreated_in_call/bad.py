# source: https://github.com/calmiLovesAI/Basic_CNNs_TensorFlow2/issues/13
# cause: not-connected
# weights: gate_w
# mode: eager
# summary: a block creates its variable inside __call__, so each step trains a fresh variable
# lint: no (not-connected: only running the calls re-creates the variable)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(43)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class Gate:
    def __call__(self, inputs):
        init = tf.ones((inputs.shape[-1], 1))
        self.w = tf.Variable(init, name="gate_w")  # expect: not-connected primary
        return inputs @ self.w


gate = Gate()
gate(x)  # warm-up call, as Keras' build would
params = [gate.w]
for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(gate(x) - y))
    grads = tape.gradient(loss, params)
    print(step, grads)
