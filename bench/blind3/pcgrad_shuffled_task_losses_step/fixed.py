# summary: the task order is shuffled by gathering the stacked losses at shuffled integer indices (tf.gather is differentiable in its params), so each task's gradient reaches the shared layer and its own head, and the summed update trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 5)).astype("float32")
targets = [np.sin(x[:, i:i + 1]).astype("float32") for i in range(3)]

inputs = tf.keras.Input((5,))
shared = tf.keras.layers.Dense(8, activation="tanh", name="shared")(inputs)
outputs = [tf.keras.layers.Dense(1, name=f"head_{t}")(shared) for t in "abc"]
model = tf.keras.Model(inputs, outputs, name="multitask")
optimizer = tf.keras.optimizers.SGD(1e-2)


@tf.function
def train_step(features, ys):
    with tf.GradientTape(persistent=True) as tape:
        preds = model(features, training=True)
        losses = tf.stack([tf.reduce_mean(tf.square(p - y)) for p, y in zip(preds, ys)])
        order = tf.random.shuffle(tf.range(3), seed=3)
        task_losses = tf.unstack(tf.gather(losses, order))
    per_task = [tape.gradient(l, model.trainable_variables,
                              unconnected_gradients=tf.UnconnectedGradients.ZERO)
                for l in task_losses]
    total = [tf.add_n(gs) for gs in zip(*per_task)]
    optimizer.apply_gradients(zip(total, model.trainable_variables))
    return total


total = train_step(x, targets)
assert len(total) == 8
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in total)
