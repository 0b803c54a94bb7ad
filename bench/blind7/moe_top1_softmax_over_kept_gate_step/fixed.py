# summary: the gate is the softmax over all router logits, read at the chosen expert (the Switch-style top-1 gate), so the router gets a gradient through the gate value
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
        probs = tf.nn.softmax(logits, axis=-1)
        kept = tf.math.top_k(probs, k=top_k)
        gates = kept.values
        chosen = tf.gather(per_expert, kept.indices, batch_dims=1)
        out = tf.reduce_sum(gates[..., None] * chosen, axis=1)
        loss = tf.reduce_mean(tf.square(out - wanted))
    return tape.gradient(loss, moe.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
