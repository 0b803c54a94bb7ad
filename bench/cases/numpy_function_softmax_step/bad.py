# source: https://github.com/tensorflow/tensorflow/issues/47288
# cause: numpy-function
# rule: TM302
# weights: actor/torso/kernel, actor/torso/bias, actor/pi/kernel, actor/pi/bias
# mode: function
# summary: an actor update computes the action probabilities in NumPy via tf.numpy_function
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(10)
states = rng.normal(size=(32, 6)).astype("float32")
actions = rng.integers(0, 3, size=32).astype("int32")
advantages = rng.normal(size=32).astype("float32")
actor = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(16, activation="tanh", name="torso"),
                             tf.keras.layers.Dense(3, name="pi")], name="actor")
optimizer = tf.keras.optimizers.Adam(1e-3)


def np_softmax(logits):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype("float32")


@tf.function
def train_step(s, a, adv):
    with tf.GradientTape() as tape:
        logits = actor(s)
        probs = tf.numpy_function(np_softmax, [logits], "float32")  # expect: numpy-function primary
        chosen = tf.gather(probs, a, batch_dims=1)
        loss = -tf.reduce_mean(tf.math.log(chosen + 1e-8) * adv)
    grads = tape.gradient(loss, actor.trainable_variables)
    optimizer.apply_gradients(zip(grads, actor.trainable_variables, strict=False))
    return loss


print(float(train_step(states, actions, advantages)))
