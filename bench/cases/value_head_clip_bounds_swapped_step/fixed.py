# summary: the value estimate clamped with the bounds in order, (min, max)
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
        value = tf.clip_by_value(critic(s), -10.0, 10.0)
        logp = tf.nn.log_softmax(actor(s))
        chosen = tf.gather(logp, a, batch_dims=1)[:, None]
        loss = -tf.reduce_mean(chosen * g) + tf.reduce_mean(tf.square(g - value))
    return tape.gradient(loss, weights)


grads = train_step(states, returns, taken)
print({v.path: float(tf.reduce_sum(tf.abs(d))) for v, d in zip(weights, grads)})
