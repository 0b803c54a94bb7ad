# source: https://github.com/google-research/seed_rl/issues/21
# cause: not-watched
# rule: TM121
# weights: policy_temperature
# mode: function
# summary: a learner keeps its learned softmax temperature in a tf.Variable made like its replica-local gradient buffers (synchronization=ON_READ); such a variable is non-trainable unless trainable=True is passed, the tape never watches it, and the traced step gets None for it while the policy head trains
# lint: no (no line says trainable=False; it follows from the synchronization argument)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
obs = tf.constant(rng.normal(size=(16, 4)), tf.float32)
actions = tf.constant(rng.integers(0, 3, size=(16,)), tf.int32)

policy = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="logits")], name="policy")
temperature = tf.Variable(1.0, name="policy_temperature",  # expect: not-watched primary
                          synchronization=tf.VariableSynchronization.ON_READ,
                          aggregation=tf.VariableAggregation.MEAN)
params = policy.trainable_variables + [temperature]
optimizer = keras.optimizers.SGD(0.1)


@tf.function
def learner_step():
    with tf.GradientTape() as tape:
        logits = policy(obs) / temperature
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(actions, logits))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients([(g, v) for g, v in zip(grads, params) if g is not None])
    return [g is None for g in grads]


print(learner_step())
