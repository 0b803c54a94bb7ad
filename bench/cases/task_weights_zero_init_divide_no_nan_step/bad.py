# source: https://github.com/deepchem/deepchem/issues/846
# cause: zero-at-runtime
# weights: two_task/tt_shared/kernel, two_task/tt_shared/bias, two_task/tt_heads/kernel, two_task/tt_heads/bias, task_weights
# mode: function
# summary: a two-task regressor learns per-task loss weights and normalises the weighted loss by their sum with divide_no_nan; the weights are created with tf.zeros (meant to be ones), so every task term is multiplied by zero, the sum is zero, divide_no_nan returns 0 with a zero gradient, and no weight, the task weights included, ever changes
# lint: no (the zero comes from an initial value)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(846)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5], axis=1).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="tanh", name="tt_shared"),
                             tf.keras.layers.Dense(2, name="tt_heads")], name="two_task")
task_weights = tf.Variable(tf.zeros([2]), name="task_weights")  # expect: zero-at-runtime primary
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


for start in range(0, 64, 16):
    train_step(x[start:start + 16], y[start:start + 16])
