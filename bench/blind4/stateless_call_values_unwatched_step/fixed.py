# summary: the tape watches the value tensors it differentiates (tape.watch(trainable)) before stateless_call reads them, so every weight value gets a gradient and the step's SGD update changes them
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20378)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="sl_hidden"),
                          keras.layers.Dense(1, name="sl_out")], name="stateless_mlp")
trainable_values = [tf.convert_to_tensor(v) for v in model.trainable_variables]
non_trainable_values = [tf.convert_to_tensor(v) for v in model.non_trainable_variables]


@tf.function
def train_step(trainable, non_trainable, features, targets):
    with tf.GradientTape() as tape:
        tape.watch(trainable)
        pred, non_trainable = model.stateless_call(trainable, non_trainable, features,
                                                   training=True)
        loss = tf.reduce_mean(tf.square(pred - targets))
    grads = tape.gradient(loss, trainable)
    trainable = [v - 1e-2 * g for v, g in zip(trainable, grads)]
    return grads, trainable


grads, new_values = train_step(trainable_values, non_trainable_values, x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
assert all(np.any(a.numpy() != b.numpy()) for a, b in zip(trainable_values, new_values))
