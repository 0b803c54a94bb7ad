# summary: the colour jitter is written with differentiable ops (brightness shift and saturation around the per-pixel mean), so the generator gets its gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(126083)
noise = tf.constant(rng.normal(size=(8, 4)).astype("float32"))
generator = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(48, activation="sigmoid", name="pixels"),
                                 tf.keras.layers.Reshape((4, 4, 3))], name="generator")
critic = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), tf.keras.layers.Flatten(),
                              tf.keras.layers.Dense(1, name="score")], name="critic")
optimizer = tf.keras.optimizers.Adam(1e-3)


def colour_jitter(images):
    grey = tf.reduce_mean(images, axis=-1, keepdims=True)
    return (images - grey) * 1.3 + grey + 0.05


@tf.function
def generator_step(z):
    with tf.GradientTape() as tape:
        images = generator(z, training=True)
        loss = -tf.reduce_mean(critic(colour_jitter(images)))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return grads


grads = generator_step(noise)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
