# source: https://github.com/tensorflow/tensorflow/issues/43065
# cause: not-connected
# rule: TM104
# weights: t_h/kernel, t_h/bias, t_mu/kernel, t_mu/bias
# mode: function
# summary: a DDPG actor update differentiates the actor's loss with respect to the target actor's weights (both built by one factory), which the loss never reads
# lint: no (not-connected: which model's weights are passed is not visible as a cut)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
STATE, ACTION = 3, 1


def get_actor(name, prefix=""):
    inputs = tf.keras.Input((STATE,))
    hidden = tf.keras.layers.Dense(16, activation="relu", name=prefix + "h")(inputs)
    mu = tf.keras.layers.Dense(ACTION, activation="tanh", name=prefix + "mu")(hidden)
    return tf.keras.Model(inputs, mu * 2.0, name=name)


def get_critic():
    state_in = tf.keras.Input((STATE,))
    action_in = tf.keras.Input((ACTION,))
    joined = tf.keras.layers.Concatenate()([state_in, action_in])
    hidden = tf.keras.layers.Dense(16, activation="relu", name="q_h")(joined)
    return tf.keras.Model([state_in, action_in], tf.keras.layers.Dense(1, name="q")(hidden),
                          name="critic")


actor_model = get_actor("actor")
target_actor = get_actor("target_actor", "t_")
target_actor.set_weights(actor_model.get_weights())
critic_model = get_critic()
actor_optimizer = tf.keras.optimizers.Adam(1e-3)
state_batch = tf.constant(np.random.default_rng(1).normal(size=(16, STATE)).astype("float32"))


@tf.function
def update_actor(states):
    with tf.GradientTape() as tape:
        actions = actor_model(states, training=True)
        critic_value = critic_model([states, actions], training=True)
        actor_loss = -tf.reduce_mean(critic_value)
    actor_grad = tape.gradient(actor_loss, target_actor.trainable_variables)  # expect: not-connected primary
    return actor_grad


grads = update_actor(state_batch)
print("actor grads:", grads)
