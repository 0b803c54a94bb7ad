# source: https://github.com/tensorflow/tensorflow/issues/62145
# cause: non-differentiable-op
# rule: TM201
# weights: restorer/pixels/kernel, restorer/pixels/bias
# mode: function
# summary: an image restorer's output goes through tf.image.adjust_contrast before the loss compares it with the target; AdjustContrastv2 has no registered gradient, so tape.gradient raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(62145)
degraded = tf.constant(rng.uniform(size=(6, 4, 4, 3)).astype("float32"))
reference = tf.constant(rng.uniform(size=(6, 4, 4, 3)).astype("float32"))
restorer = tf.keras.Sequential([tf.keras.Input((4, 4, 3)),
                                tf.keras.layers.Dense(3, activation="sigmoid", name="pixels")],
                               name="restorer")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(images, target):
    with tf.GradientTape() as tape:
        restored = restorer(images, training=True)
        stretched = tf.image.adjust_contrast(restored, 1.5)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.abs(stretched - target))
    grads = tape.gradient(loss, restorer.trainable_variables)
    optimizer.apply_gradients(zip(grads, restorer.trainable_variables))
    return loss


print(float(train_step(degraded, reference)))
