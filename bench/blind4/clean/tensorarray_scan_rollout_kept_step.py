# source: https://github.com/tensorflow/tensorflow/issues/34683
# summary: a @tf.function step rolls a learned recurrence forward in a tf.range loop, keeps every state in a tf.TensorArray (states = states.write(t, h), the returned array kept) and reads the stack in the loss; the array only carries values, so the encoder and the step cell both train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34683)
start = rng.normal(size=(8, 3)).astype("float32")
trajectory = rng.normal(size=(5, 8, 4)).astype("float32")

encoder = tf.keras.layers.Dense(4, activation="tanh", name="ta_encoder")
cell = tf.keras.layers.Dense(4, activation="tanh", name="ta_cell")
encoder.build((None, 3))
cell.build((None, 4))
sources = encoder.trainable_variables + cell.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(x0, target):
    with tf.GradientTape() as tape:
        h = encoder(x0)
        states = tf.TensorArray(tf.float32, size=5, element_shape=(8, 4), clear_after_read=False)
        for t in tf.range(5):
            h = cell(h)
            states = states.write(t, h)
        steps_taken = tf.cast(states.size(), tf.float32)
        loss = tf.reduce_sum(tf.square(states.stack() - target)) / steps_taken
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(start, trajectory)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
