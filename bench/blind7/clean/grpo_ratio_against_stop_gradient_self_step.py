# source: https://github.com/huggingface/trl/issues/2769
# summary: a GRPO-style step writes the ratio as exp(logp - tf.stop_gradient(logp)); its value is exactly 1, but only the first term carries a gradient, so the loss has the REINFORCE gradient and every policy weight gets one (the look-alike of a ratio against itself)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2769)
states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 3, size=32).astype("int32")
advantages = rng.normal(size=32).astype("float32")

policy = keras.Sequential([keras.Input((4,)),
                           keras.layers.Dense(16, activation="tanh", name="grpo_hidden"),
                           keras.layers.Dense(3, name="grpo_logits")], name="grpo_policy")


@tf.function
def train_step(obs, taken, adv):
    with tf.GradientTape() as tape:
        logp = tf.reduce_sum(tf.nn.log_softmax(policy(obs, training=True)) * tf.one_hot(taken, 3), axis=-1)
        ratio = tf.exp(logp - tf.stop_gradient(logp))
        loss = -tf.reduce_mean(ratio * adv)
    return tape.gradient(loss, policy.trainable_variables), ratio


grads, ratio = train_step(states, actions, advantages)
assert np.allclose(ratio.numpy(), 1.0)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
