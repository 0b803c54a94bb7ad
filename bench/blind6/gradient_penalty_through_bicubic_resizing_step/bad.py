# source: https://github.com/tensorflow/tensorflow/issues/33751
# cause: non-differentiable-op
# weights: critic/critic_conv/kernel, critic/critic_conv/bias, critic/critic_score/kernel
# mode: function
# summary: a WGAN-GP critic starts with keras.layers.Resizing(..., interpolation="bicubic") to bring small images to its input size; the gradient penalty differentiates the critic's input gradient once more, ResizeBicubicGrad has no registered gradient, and the traced step fails with LookupError
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(33751)
real = rng.normal(size=(8, 6, 6, 1)).astype("float32")
fake = rng.normal(size=(8, 6, 6, 1)).astype("float32")

critic = keras.Sequential([keras.Input((6, 6, 1)),
                           keras.layers.Resizing(12, 12, interpolation="bicubic", name="to_critic_size"),  # expect: non-differentiable-op primary
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


try:
    critic_step(real, fake)
except Exception as err:  # a StagingError that carries the LookupError in a traced step
    print(type(err).__name__, err)
