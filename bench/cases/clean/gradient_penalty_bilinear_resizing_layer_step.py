# summary: a WGAN-GP critic whose first layer is keras.layers.Resizing(interpolation="bilinear"); the gradient penalty differentiates the critic's input gradient again inside a traced step, and ResizeBilinearGrad has a registered gradient, so every weight is trained
# source: https://keras.io/examples/generative/wgan_gp/
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(3)

rng = np.random.default_rng(3)
real = rng.normal(size=(8, 6, 6, 1)).astype("float32")
fake = rng.normal(size=(8, 6, 6, 1)).astype("float32")

critic = keras.Sequential([keras.Input((6, 6, 1)),
                           keras.layers.Resizing(12, 12, interpolation="bilinear", name="to_size"),
                           keras.layers.Conv2D(4, 3, activation="tanh", name="conv"),
                           keras.layers.Flatten(),
                           keras.layers.Dense(1, name="score")], name="critic")


@tf.function
def critic_step(real_images, fake_images):
    alpha = tf.random.stateless_uniform((8, 1, 1, 1), seed=[1, 2])
    mixed = alpha * real_images + (1.0 - alpha) * fake_images
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            inner.watch(mixed)
            mixed_score = critic(mixed, training=True)
        grad_mixed = inner.gradient(mixed_score, mixed)
        norms = tf.norm(tf.reshape(grad_mixed, (8, -1)), axis=1)
        penalty = tf.reduce_mean(tf.square(norms - 1.0))
        loss = tf.reduce_mean(critic(fake_images)) - tf.reduce_mean(critic(real_images)) + 10.0 * penalty
    return tape.gradient(loss, critic.trainable_variables)


grads = critic_step(real, fake)
# The output bias cancels in mean(fake) - mean(real): its gradient is exactly 0 by design.
assert all(g is not None for g in grads)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads[:-1])
