# summary: the loss compares float images: the uint8 ground truth is converted to float in [0, 1] instead
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
        error = model(images) - tf.image.convert_image_dtype(target, tf.float32)
        loss = tf.reduce_mean(tf.square(error))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(noisy, truth)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
