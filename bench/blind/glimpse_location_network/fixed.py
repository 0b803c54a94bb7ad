# summary: the glimpse is taken at a sampled, stopped location; the location network is trained by REINFORCE (log-likelihood of the sample times the advantage) and the classifier by cross-entropy
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
images = tf.constant(rng.uniform(size=(8, 12, 12, 1)).astype("float32"))
labels = tf.constant(rng.integers(0, 3, size=8))
location = tf.keras.layers.Dense(2, activation="tanh", name="location")
head = tf.keras.layers.Dense(3, name="glimpse_head")
location.build((None, 144))
head.build((None, 16))
variables = location.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-3)
jitter = tf.constant(rng.normal(0.0, 0.2, size=(8, 2)).astype("float32"))


@tf.function
def train_step(batch, targets):
    with tf.GradientTape() as tape:
        mean = location(tf.reshape(batch, (-1, 144)))
        sample = tf.stop_gradient(mean + jitter)
        glimpse = tf.image.extract_glimpse(batch, [4, 4], sample)
        logits = head(tf.reshape(tf.stop_gradient(glimpse), (-1, 16)))
        per_example = tf.keras.losses.sparse_categorical_crossentropy(
            targets, logits, from_logits=True)
        advantage = tf.stop_gradient(tf.reduce_mean(per_example) - per_example)
        log_prob = -tf.reduce_sum(tf.square(sample - mean), axis=-1) / (2 * 0.2 ** 2)
        loss = tf.reduce_mean(per_example) - tf.reduce_mean(log_prob * advantage)
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(images, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
