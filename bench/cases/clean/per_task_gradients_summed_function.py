# source: https://discuss.tensorflow.org/t/passing-in-multiple-losses-in-tape-gradient/13935
# summary: a regression head and a classification head on one trunk; the @tf.function step takes one gradient per task loss in a loop (a head gets None from the other task's loss by design) and adds the parts that are present before one optimizer step
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Tasks(keras.Model):
    def __init__(self):
        super().__init__(name="tasks")
        self.trunk = keras.layers.Dense(16, activation="relu", name="trunk")
        self.deep = keras.layers.Dense(16, activation="relu", name="deep")
        self.regress = keras.layers.Dense(1, name="regress")
        self.classify = keras.layers.Dense(3, name="classify")

    def call(self, x):
        h = self.deep(self.trunk(x))
        return self.regress(h), self.classify(h)


keras.utils.set_random_seed(13935)
rng = np.random.default_rng(13935)
features = rng.normal(size=(48, 3)).astype("float32")
amount = features.sum(axis=1, keepdims=True)
kind = (features[:, 0] > 0).astype("int32") + (features[:, 1] > 0).astype("int32")
model = Tasks()
model(features[:2])
mae = keras.losses.MeanAbsoluteError()
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(x, y_amount, y_kind):
    with tf.GradientTape(persistent=True) as tape:
        out_amount, out_kind = model(x)
        task_losses = {"amount": mae(y_amount, out_amount), "kind": xent(y_kind, out_kind)}
    summed = [tf.zeros_like(v) for v in model.trainable_variables]
    for name in ("amount", "kind"):
        parts = tape.gradient(task_losses[name], model.trainable_variables)
        summed = [s if g is None else s + g for s, g in zip(summed, parts)]
    opt.apply_gradients(zip(summed, model.trainable_variables))
    return summed


for _ in range(3):
    grads = step(features, amount, kind)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
