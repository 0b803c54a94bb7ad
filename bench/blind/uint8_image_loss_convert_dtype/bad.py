# source: https://github.com/tensorflow/tensorflow/issues/23274
# cause: integer-dtype
# weights: denoiser/clean/kernel, denoiser/clean/bias
# mode: function
# summary: a denoiser's output is converted to 8-bit with tf.image.convert_image_dtype(..., tf.uint8) so the loss compares it with the uint8 ground truth; the integer image carries no gradient
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(23274)
truth = rng.integers(0, 256, size=(8, 4, 4, 1)).astype("uint8")
noisy = tf.constant(np.clip(truth / 255.0 + rng.normal(0, 0.1, truth.shape), 0, 1).astype("float32"))
truth = tf.constant(truth)
model = tf.keras.Sequential([tf.keras.Input((4, 4, 1)), tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(16, activation="sigmoid", name="clean"),
                             tf.keras.layers.Reshape((4, 4, 1))], name="denoiser")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(images, target):
    with tf.GradientTape() as tape:
        restored = tf.image.convert_image_dtype(model(images), tf.uint8)  # expect: integer-dtype primary
        error = tf.cast(restored, tf.float32) - tf.cast(target, tf.float32)
        loss = tf.reduce_mean(tf.square(error))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(noisy, truth)))
