# summary: an eager GradientTape loop keeps the per-example loss only where a validity flag is set (tf.where against zeros): half the batch is gated out, the other half trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(23)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
valid = tf.constant(np.arange(32) % 2 == 1)

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="tanh", name="ge_hidden"),
                             tf.keras.layers.Dense(1, name="ge_out")], name="gated_eager")
optimizer = tf.keras.optimizers.SGD(0.1)
before = [w.numpy().copy() for w in model.trainable_variables]
for _ in range(3):
    with tf.GradientTape() as tape:
        per_example = tf.reduce_sum(tf.square(model(x) - y), axis=-1)
        loss = tf.reduce_mean(tf.where(valid, per_example, tf.zeros_like(per_example)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert all(np.any(g.numpy() != 0) for g in grads)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables, strict=True))
