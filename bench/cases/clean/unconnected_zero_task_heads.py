# summary: per-task heads made in one loop; each task's loss reads its own head and asks unconnected_gradients=ZERO for the others, so one update serves every head
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
features = tf.constant(rng.normal(size=(16, 4)).astype("float32"))
targets = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
trunk = tf.Variable(tf.random.normal((4, 4), seed=2), name="trunk")
heads = [tf.Variable(tf.random.normal((4, 1), seed=3 + i), name="head" + str(i))
         for i in range(3)]


@tf.function
def task_grads(task):
    with tf.GradientTape() as tape:
        hidden = tf.tanh(tf.matmul(features, trunk))
        pred = tf.matmul(hidden, heads[task])
        loss = tf.reduce_mean(tf.square(pred - targets[:, task:task + 1]))
    return tape.gradient(loss, [trunk, *heads], unconnected_gradients=tf.UnconnectedGradients.ZERO)


total = [tf.zeros_like(v) for v in [trunk, *heads]]
for task in range(3):
    total = [t + g for t, g in zip(total, task_grads(task))]
assert all(float(tf.reduce_sum(tf.abs(g))) > 0 for g in total), total
print("summed grads:", [float(tf.reduce_sum(tf.abs(g))) for g in total])
