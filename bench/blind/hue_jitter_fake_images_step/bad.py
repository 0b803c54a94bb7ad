# source: https://github.com/tensorflow/tensorflow/issues/126083
# cause: non-differentiable-op
# weights: generator/pixels/kernel, generator/pixels/bias
# mode: function
# summary: a GAN generator step jitters the hue of the generated images with tf.image.adjust_hue before the critic scores them; AdjustHue has no registered gradient, so tape.gradient raises LookupError
# lint: yes
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


@tf.function
def generator_step(z):
    with tf.GradientTape() as tape:
        images = generator(z, training=True)
        augmented = tf.image.adjust_hue(images, 0.1)  # expect: non-differentiable-op primary
        loss = -tf.reduce_mean(critic(augmented))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return loss


print(float(generator_step(noise)))
