# source: https://github.com/tensorflow/tensorflow/issues/48547
# cause: not-connected
# weights: value/kernel, value/bias
# mode: function
# summary: an actor-critic model with a policy head and a value head; the step computes the value loss but the total loss adds only the policy and entropy terms, so the value head is not on the loss path and its gradients are None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(48547)
states = rng.normal(size=(64, 4)).astype("float32")
actions = rng.integers(0, 2, size=(64,)).astype("int32")
returns = rng.normal(size=(64, 1)).astype("float32")

inputs = tf.keras.Input((4,))
trunk = tf.keras.layers.Dense(16, activation="relu", name="trunk")(inputs)
policy = tf.keras.layers.Dense(2, name="policy")(trunk)
value = tf.keras.layers.Dense(1, name="value")(trunk)
model = tf.keras.Model(inputs, [policy, value], name="ac")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(s, a, g):
    with tf.GradientTape() as tape:
        logits, v = model(s, training=True)
        log_probs = tf.nn.log_softmax(logits)
        taken = tf.gather(log_probs, a, batch_dims=1)
        advantage = tf.stop_gradient(g[:, 0] - v[:, 0])
        policy_loss = -tf.reduce_mean(taken * advantage)
        value_loss = tf.reduce_mean(tf.square(g - v))
        entropy = -tf.reduce_mean(tf.reduce_sum(tf.exp(log_probs) * log_probs, axis=-1))
        total_loss = policy_loss - 0.01 * entropy  # expect: not-connected primary
    grads = tape.gradient(total_loss, model.trainable_variables)
    return value_loss, grads


value_loss, grads = train_step(states, actions, returns)
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
