# source: https://github.com/microsoft/Stochastic-Mixture-of-Experts/issues/3
# summary: a mixture-of-experts block keeps the top-2 router logits with tf.math.top_k and takes the softmax over the two kept logits as the gate (the Mixtral recipe); the expert indices are integers by design, the gate values depend on the router, and the router and experts both get gradients
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 3)).astype("float32")

inputs = keras.Input((6,))
router_logits = keras.layers.Dense(4, name="top2_router")(inputs)
expert_out = keras.layers.Reshape((4, 3))(keras.layers.Dense(12, name="top2_experts")(inputs))
moe = keras.Model(inputs, [router_logits, expert_out], name="top2_moe")


@tf.function
def train_step(features, wanted):
    with tf.GradientTape() as tape:
        logits, per_expert = moe(features, training=True)
        kept = tf.math.top_k(logits, k=2)
        gates = tf.nn.softmax(kept.values, axis=-1)
        chosen = tf.gather(per_expert, kept.indices, batch_dims=1)
        loss = tf.reduce_mean(tf.square(tf.reduce_sum(gates[..., None] * chosen, axis=1) - wanted))
    return tape.gradient(loss, moe.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
