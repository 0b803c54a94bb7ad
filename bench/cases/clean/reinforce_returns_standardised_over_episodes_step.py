# summary: REINFORCE on a batch of one-step episodes: the returns of the whole batch are standardised together ((G - mean) / std over eight returns), the advantage multiplies the log-probabilities of the actions taken, traced step called on two batches
# source: https://www.tensorflow.org/agents/tutorials/6_reinforce_tutorial
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(4)
rng = np.random.default_rng(4)
policy = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="tanh"),
                           keras.layers.Dense(4)])
opt = keras.optimizers.SGD(1e-2)


@tf.function
def train_step(obs, taken, returns):
    advantage = (returns - tf.reduce_mean(returns)) / (tf.math.reduce_std(returns) + 1e-8)
    with tf.GradientTape() as tape:
        logp = tf.reduce_sum(tf.nn.log_softmax(policy(obs, training=True)) * tf.one_hot(taken, 4),
                             axis=-1)
        loss = -tf.reduce_mean(logp * advantage)
    grads = tape.gradient(loss, policy.trainable_variables)
    opt.apply_gradients(zip(grads, policy.trainable_variables))
    return grads


for _ in range(2):
    grads = train_step(rng.normal(size=(8, 5)).astype("float32"),
                       rng.integers(0, 4, size=8).astype("int32"),
                       rng.normal(size=8).astype("float32"))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
