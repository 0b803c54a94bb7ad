# summary: the router's score weighs the two experts (a soft mix by its sigmoid) instead of choosing one with an `if`, so the router's value reaches the loss and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(859)
tokens = rng.normal(size=(16, 4)).astype("float32")
targets = rng.normal(size=(16, 4)).astype("float32")

router = tf.keras.layers.Dense(1, name="router")
expert_a = tf.keras.layers.Dense(4, name="expert_a")
expert_b = tf.keras.layers.Dense(4, name="expert_b")
for layer in (router, expert_a, expert_b):
    layer.build((None, 4))
weights = router.trainable_variables + expert_a.trainable_variables + expert_b.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        share = tf.sigmoid(router(batch))
        mixed = share * expert_a(batch) + (1.0 - share) * expert_b(batch)
        loss = tf.reduce_mean(tf.square(mixed - target))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(tokens, targets)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
