# summary: the critic resizes with bilinear interpolation, whose backward op has its own gradient, so the gradient penalty can be differentiated and the critic's kernels and conv bias get gradients (its score bias cancels in the Wasserstein difference by design)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(33751)
real = rng.normal(size=(8, 6, 6, 1)).astype("float32")
fake = rng.normal(size=(8, 6, 6, 1)).astype("float32")

critic = keras.Sequential([keras.Input((6, 6, 1)),
                           keras.layers.Resizing(12, 12, interpolation="bilinear", name="to_critic_size"),
                           keras.layers.Conv2D(4, 3, activation="tanh", name="critic_conv"),
                           keras.layers.Flatten(),
                           keras.layers.Dense(1, name="critic_score")], name="critic")


@tf.function
def critic_step(real_images, fake_images):
    alpha = tf.random.stateless_uniform((8, 1, 1, 1), seed=[3, 4])
    mixed = alpha * real_images + (1.0 - alpha) * fake_images
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            inner.watch(mixed)
            mixed_score = critic(mixed, training=True)
        grad_mixed = inner.gradient(mixed_score, mixed)
        penalty = tf.reduce_mean(tf.square(tf.norm(tf.reshape(grad_mixed, (8, -1)), axis=1) - 1.0))
        loss = tf.reduce_mean(critic(fake_images)) - tf.reduce_mean(critic(real_images)) + 10.0 * penalty
    return tape.gradient(loss, critic.trainable_variables)


grads = critic_step(real, fake)
assert len(grads) == 4
# the score bias cancels in mean(fake) - mean(real) and the penalty does not read it: its zero is by design
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads[:3])
assert float(tf.reduce_sum(tf.abs(grads[3]))) == 0.0
