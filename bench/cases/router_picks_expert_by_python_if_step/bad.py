# source: https://github.com/jingyaogong/minimind/pull/859
# cause: non-differentiable-op|python-control-flow
# rule: TM201
# weights: router/kernel, router/bias
# mode: function
# summary: a two-expert block lets a learned router pick the expert with a Python `if` on the router's mean score inside a tf.function (autograph turns it into a cond); the router reaches the loss only through the condition, which has no gradient, so the experts train and the router gets None
# lint: yes
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
        score = tf.reduce_mean(router(batch))
        if score > 0.0:  # expect: non-differentiable-op|python-control-flow primary
            mixed = expert_a(batch) + 0.5 * expert_b(batch)
        else:
            mixed = expert_b(batch) + 0.5 * expert_a(batch)
        loss = tf.reduce_mean(tf.square(mixed - target))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(tokens, targets)
print("router grads are None:", [g is None for g in grads[:2]])
