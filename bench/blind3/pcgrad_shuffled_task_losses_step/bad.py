# source: https://github.com/tianheyu927/PCGrad/issues/3
# cause: non-differentiable-op
# weights: shared/kernel, shared/bias, head_a/kernel, head_a/bias, head_b/kernel, head_b/bias, head_c/kernel, head_c/bias
# mode: function
# summary: a PCGrad-style multi-task step stacks the per-task losses and shuffles their order with tf.random.shuffle before taking each task's gradient; RandomShuffle is not differentiable, so every per-task gradient is None and no weight is updated
# lint: yes
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
        losses = tf.random.shuffle(losses, seed=3)  # expect: non-differentiable-op primary
        task_losses = tf.unstack(losses)
    per_task = [tape.gradient(l, model.trainable_variables) for l in task_losses]
    return per_task


per_task = train_step(x, targets)
print("task gradients are None:", [all(g is None for g in grads) for grads in per_task])
