# source: https://github.com/zhongwen/RAM/issues/3
# cause: non-differentiable-op
# weights: location/kernel, location/bias, glimpse_head/kernel, glimpse_head/bias
# mode: function
# summary: a recurrent-attention step lets a location network choose where tf.image.extract_glimpse looks and trains it with the classification loss; ExtractGlimpse has no gradient, so tape.gradient raises LookupError
# lint: yes
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


@tf.function
def train_step(batch, targets):
    with tf.GradientTape() as tape:
        where = location(tf.reshape(batch, (-1, 144)))
        glimpse = tf.image.extract_glimpse(batch, [4, 4], where)  # expect: non-differentiable-op primary
        logits = head(tf.reshape(glimpse, (-1, 16)))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, logits, from_logits=True))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return loss


print(float(train_step(images, labels)))
