# source: https://github.com/tensorflow/tensorflow/issues/36981
# summary: a memory-saving step wraps a Keras residual block in tf.recompute_grad (gradient checkpointing: the forward activations are recomputed in the backward pass); the block's variables are read inside the wrapped function and still get their gradients, so every weight is trained
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(36981)
x = rng.normal(size=(32, 8)).astype("float32")
y = np.tanh(x[:, :1]).astype("float32")

stem = tf.keras.layers.Dense(16, activation="relu", name="ck_stem")
inner = tf.keras.layers.Dense(16, activation="relu", name="ck_inner")
head = tf.keras.layers.Dense(1, name="ck_head")
inputs = tf.keras.Input((8,))
model = tf.keras.Model(inputs, head(inner(stem(inputs))), name="checkpointed")
block = tf.recompute_grad(lambda h: h + inner(h))


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(head(block(stem(features))) - targets))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
