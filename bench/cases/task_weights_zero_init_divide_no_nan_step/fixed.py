# summary: the task weights start at one, so each task term counts, the normalised loss has a gradient and every weight, the task weights included, changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(846)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5], axis=1).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="tanh", name="tt_shared"),
                             tf.keras.layers.Dense(2, name="tt_heads")], name="two_task")
task_weights = tf.Variable(tf.ones([2]), name="task_weights")
variables = model.trainable_variables + [task_weights]
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        per_task = tf.reduce_mean(tf.square(model(xb) - yb), axis=0)
        loss = tf.math.divide_no_nan(tf.reduce_sum(task_weights * per_task), tf.reduce_sum(task_weights))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return loss


before = [v.numpy().copy() for v in variables]
for start in range(0, 64, 16):
    train_step(x[start:start + 16], y[start:start + 16])
assert all(np.any(b != v.numpy()) for b, v in zip(before, variables, strict=True))
