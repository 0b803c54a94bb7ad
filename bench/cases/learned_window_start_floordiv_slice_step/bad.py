# source: https://github.com/keras-team/keras/issues/4966
# cause: integer-dtype|non-differentiable-op
# rule: TM202
# weights: locator/kernel, locator/bias
# mode: function
# summary: a locator layer predicts where to crop each signal, the step casts the predicted position to an integer window length, halves it with // to centre the window and slices it out; the integer carries no gradient, so the head on the crop trains and the locator gets None (one cut: the cast; the `//` on the integer only sizes the slice)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4966)
signals = rng.normal(size=(8, 32)).astype("float32")
labels = rng.normal(size=(8, 1)).astype("float32")

locator = tf.keras.layers.Dense(1, activation="sigmoid", name="locator")
head = tf.keras.layers.Dense(1, name="crop_head")
locator.build((None, 32))
head.build((None, 1))
weights = locator.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        span = 8.0 + 16.0 * tf.reduce_mean(locator(batch))
        length = tf.cast(span, tf.int32)  # expect: integer-dtype|non-differentiable-op primary
        start = (32 - length) // 2
        window = tf.slice(batch, [0, start], [-1, length])
        pooled = tf.reduce_mean(window, axis=1, keepdims=True)
        loss = tf.reduce_mean(tf.square(head(pooled) - target))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(signals, labels)
print("locator grads are None:", [g is None for g in grads[:2]])
