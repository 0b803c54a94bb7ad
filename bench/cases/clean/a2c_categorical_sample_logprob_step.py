# summary: advantage actor-critic: actions drawn with tf.random.categorical from the policy's logits inside the tape, their log-probabilities gathered with tf.gather(..., batch_dims=1), the advantage under stop_gradient, an entropy bonus, eager
# source: https://www.tensorflow.org/tutorials/reinforcement_learning/actor_critic
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(25)
rng = np.random.default_rng(25)
s = tf.constant(rng.normal(size=(16, 4)).astype("float32"))
returns = tf.constant(rng.normal(size=(16,)).astype("float32"))
inp = keras.Input((4,))
h = layers.Dense(16, activation="relu", name="trunk")(inp)
model = keras.Model(inp, [layers.Dense(2, name="actor")(h), layers.Dense(1, name="critic")(h)])
opt = keras.optimizers.Adam(1e-2)
with tf.GradientTape() as tape:
    logits, value = model(s)
    actions = tf.random.categorical(logits, 1)[:, 0]
    log_probs = tf.nn.log_softmax(logits)
    chosen = tf.gather(log_probs, actions, batch_dims=1)
    value = tf.squeeze(value, -1)
    advantage = tf.stop_gradient(returns - value)
    actor_loss = -tf.reduce_mean(chosen * advantage)
    entropy = -tf.reduce_mean(tf.reduce_sum(tf.nn.softmax(logits) * log_probs, axis=-1))
    critic_loss = keras.losses.Huber()(returns, value)
    loss = actor_loss + 0.5 * critic_loss - 0.01 * entropy
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
