# source: https://github.com/lucidrains/mixture-of-experts/issues/7
# cause: zero-at-runtime
# weights: router/kernel, router/bias
# mode: function
# summary: a mixture-of-experts block keeps the top-1 router logit with tf.math.top_k and then takes the softmax over the kept logits to get the gate (the top-k recipe written for k=2 and used with k=1); the softmax of one value is exactly 1, so the router gets an exact zero gradient and never learns to route
# lint: no (softmax over the kept top-k logits is the usual recipe; it is constant only for k=1)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 3)).astype("float32")
num_experts, top_k = 4, 1

inputs = keras.Input((6,))
router_logits = keras.layers.Dense(num_experts, name="router")(inputs)
expert_out = keras.layers.Reshape((num_experts, 3))(keras.layers.Dense(num_experts * 3, name="experts")(inputs))
moe = keras.Model(inputs, [router_logits, expert_out], name="moe_block")


@tf.function
def train_step(features, wanted):
    with tf.GradientTape() as tape:
        logits, per_expert = moe(features, training=True)
        kept = tf.math.top_k(logits, k=top_k)
        gates = tf.nn.softmax(kept.values, axis=-1)  # expect: zero-at-runtime primary
        chosen = tf.gather(per_expert, kept.indices, batch_dims=1)
        out = tf.reduce_sum(gates[..., None] * chosen, axis=1)
        loss = tf.reduce_mean(tf.square(out - wanted))
    return tape.gradient(loss, moe.trainable_variables)


grads = train_step(x, y)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(moe.trainable_variables, grads)})
