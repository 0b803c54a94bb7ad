# summary: a tf.function step keeps the per-example loss only where a validity flag is set (tf.where against zeros): half the batch is gated out, the other half trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(11)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
valid = np.arange(32) % 2 == 0

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="tanh", name="gw_hidden"),
                             tf.keras.layers.Dense(1, name="gw_out")], name="gated_where")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(xb, yb, keep):
    with tf.GradientTape() as tape:
        per_example = tf.reduce_sum(tf.square(model(xb) - yb), axis=-1)
        kept = tf.where(keep, per_example, tf.zeros_like(per_example))
        loss = tf.reduce_sum(kept) / tf.maximum(tf.reduce_sum(tf.cast(keep, tf.float32)), 1.0)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


before = [w.numpy().copy() for w in model.trainable_variables]
for _ in range(3):
    grads = train_step(x, y, valid)
assert all(np.any(g.numpy() != 0) for g in grads)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables, strict=True))
