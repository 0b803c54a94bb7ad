# source: https://github.com/tensorflow/tensorflow/issues/33998
# summary: a traced rollout keeps the TensorArray each write returns and the tensor tf.tensor_scatter_nd_update returns, while other calls in the tape are statements on purpose (tf.debugging.check_numerics on the states, a running-mean metric, an assign to a step counter): their dropped results carry nothing the loss needs
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3399)
start = rng.normal(size=(8, 3)).astype("float32")
trajectory = rng.normal(size=(3, 8, 4)).astype("float32")

encoder = tf.keras.layers.Dense(4, activation="tanh", name="roll_encoder")
cell = tf.keras.layers.Dense(4, activation="tanh", name="roll_cell")
encoder.build((None, 3))
cell.build((None, 4))
sources = encoder.trainable_variables + cell.trainable_variables
running = tf.keras.metrics.Mean(name="running_loss")
steps_seen = tf.Variable(0, trainable=False)
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(x0, target):
    with tf.GradientTape() as tape:
        h = encoder(x0)
        states = tf.TensorArray(tf.float32, size=3, element_shape=(8, 4))
        for t in tf.range(3):
            h = cell(h)
            tf.debugging.check_numerics(h, "rollout state")
            states = states.write(t, h)
        stacked = states.stack()
        stacked = tf.tensor_scatter_nd_update(stacked, [[0]], stacked[:1] * 0.5)
        loss = tf.reduce_mean(tf.square(stacked - target))
        running.update_state(loss)
    steps_seen.assign_add(1)
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss, grads


loss, grads = train_step(start, trajectory)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok", float(loss), float(running.result()))
