# summary: the temperature is an ordinary tf.Variable (ON_READ is for replica-local buffers), the tape watches it, and the traced step gives every parameter a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
obs = tf.constant(rng.normal(size=(16, 4)), tf.float32)
actions = tf.constant(rng.integers(0, 3, size=(16,)), tf.int32)

policy = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="logits")], name="policy")
temperature = tf.Variable(1.0, name="policy_temperature")
params = policy.trainable_variables + [temperature]
optimizer = keras.optimizers.SGD(0.1)


@tf.function
def learner_step():
    with tf.GradientTape() as tape:
        logits = policy(obs) / temperature
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(actions, logits))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params))
    return [tf.reduce_sum(tf.abs(g)) for g in grads]


norms = learner_step()
assert len(norms) == 3 and all(float(n) > 0 for n in norms), norms
