# source: https://github.com/keras-team/keras-io/pull/1612
# cause: not-watched
# rule: TM102
# weights: -
# mode: function
# summary: WGAN-GP: the penalty's tape differentiates the critic by the interpolated images it never watched
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52)
real_images = rng.random((32, 8, 8, 1)).astype("float32")

generator = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                 tf.keras.layers.Dense(64, name="g_dense"),
                                 tf.keras.layers.Reshape((8, 8, 1))], name="generator")
critic = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 1)),
                              tf.keras.layers.Conv2D(4, 3, padding="same", name="c_conv"),
                              tf.keras.layers.LeakyReLU(),
                              tf.keras.layers.Flatten(),
                              tf.keras.layers.Dense(1, name="c_out")], name="critic")
d_opt = tf.keras.optimizers.Adam(1e-3, beta_1=0.5, beta_2=0.9)
gp_weight = 10.0


def gradient_penalty(batch_size, real, fake):
    alpha = tf.random.uniform([batch_size, 1, 1, 1], 0.0, 1.0)
    diff = fake - real
    interpolated = real + alpha * diff
    with tf.GradientTape() as gp_tape:  # expect: not-watched primary
        pred = critic(interpolated, training=True)
    grads = gp_tape.gradient(pred, [interpolated])[0]
    norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
    return tf.reduce_mean((norm - 1.0) ** 2)


@tf.function
def critic_step(real):
    batch_size = tf.shape(real)[0]
    noise = tf.random.normal([batch_size, 4])
    with tf.GradientTape() as tape:
        fake = generator(noise, training=True)
        real_out = critic(real, training=True)
        d_cost = tf.reduce_mean(critic(fake, training=True)) - tf.reduce_mean(real_out)
        drift = 1e-3 * tf.reduce_mean(tf.square(real_out))
        d_loss = d_cost + gradient_penalty(batch_size, real, fake) * gp_weight + drift
    grads = tape.gradient(d_loss, critic.trainable_variables)
    d_opt.apply_gradients(zip(grads, critic.trainable_variables))
    return d_loss


for batch in tf.data.Dataset.from_tensor_slices(real_images).batch(16):
    print(float(critic_step(batch)))
