# source: https://github.com/tensorflow/tensorflow/pull/57199
# cause: zero-at-runtime
# weights: critic/v_hidden/kernel, critic/v_hidden/bias, critic/v_out/kernel, critic/v_out/bias
# mode: function
# summary: an actor-critic step clamps the critic's value estimate with the bounds given as (max, min), tf.clip_by_value(value, 10.0, -10.0); with min above max every element comes out as the same constant, so both layers of the critic (every weight whose only path to the loss runs through the clamp) get exactly zero gradients while the actor trains
# lint: no (the clamp's values decide it at run time)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(57151)
states = rng.normal(size=(32, 4)).astype("float32")
returns = rng.normal(size=(32, 1)).astype("float32")
taken = rng.integers(0, 3, size=(32,))

actor = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, name="logits")],
                            name="actor")
critic = tf.keras.Sequential([tf.keras.Input((4,)),
                              tf.keras.layers.Dense(16, activation="relu", name="v_hidden"),
                              tf.keras.layers.Dense(1, name="v_out")], name="critic")
weights = actor.trainable_variables + critic.trainable_variables


@tf.function
def train_step(s, g, a):
    with tf.GradientTape() as tape:
        value = tf.clip_by_value(critic(s), 10.0, -10.0)  # expect: zero-at-runtime primary
        logp = tf.nn.log_softmax(actor(s))
        chosen = tf.gather(logp, a, batch_dims=1)[:, None]
        loss = -tf.reduce_mean(chosen * g) + tf.reduce_mean(tf.square(g - value))
    return tape.gradient(loss, weights)


grads = train_step(states, returns, taken)
print({v.path: float(tf.reduce_sum(tf.abs(d))) for v, d in zip(weights, grads)})
