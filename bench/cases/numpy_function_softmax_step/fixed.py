# summary: tf.nn.softmax computes the probabilities inside the graph
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


@tf.function
def train_step(s, a, adv):
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(actor(s))
        chosen = tf.gather(probs, a, batch_dims=1)
        loss = -tf.reduce_mean(tf.math.log(chosen + 1e-8) * adv)
    grads = tape.gradient(loss, actor.trainable_variables)
    optimizer.apply_gradients(zip(grads, actor.trainable_variables, strict=False))
    return loss, grads


loss, grads = train_step(states, actions, advantages)
print(float(loss))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
