# summary: a hand-written warmup scales every gradient by min(step / warmup, 1) before apply_gradients: the first update is zero on purpose, the next ones are not
# source: https://www.tensorflow.org/api_docs/python/tf/clip_by_global_norm
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9)
x = rng.normal(size=(32, 4)).astype("float32")
y = x.sum(axis=1, keepdims=True)
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="tanh", name="wu_hidden"),
                             tf.keras.layers.Dense(1, name="wu_out")], name="warm")
optimizer = tf.keras.optimizers.SGD(0.05)
step = tf.Variable(0.0, trainable=False)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    grads, _ = tf.clip_by_global_norm(grads, 5.0)
    scale = tf.minimum(step / 3.0, 1.0)
    optimizer.apply_gradients(zip([g * scale for g in grads], model.trainable_variables))
    step.assign_add(1.0)


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(4):
    train_step()
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables))
