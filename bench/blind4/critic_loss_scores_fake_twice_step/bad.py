# source: https://github.com/YeonwooSung/GAN_Implementation/issues/5
# cause: zero-at-runtime
# weights: critic/critic_hidden/kernel, critic/critic_hidden/bias, critic/critic_score/kernel
# mode: function
# summary: a WGAN critic step computes the critic's scores on the real and the generated batch but its loss subtracts the fake score from itself (mean(fake_score) - mean(fake_score), a typo for the real score); the loss is exactly 0, the two gradient paths cancel, and every critic weight gets an all-zero gradient while the generator step trains
# lint: no (zero at run time: the two terms are separate calls that happen to name the same tensor)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
real = (rng.normal(size=(32, 4)) + 2.0).astype("float32")

generator = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="gen_hidden"),
                                 tf.keras.layers.Dense(4, name="gen_out")], name="generator")
critic = tf.keras.Sequential([tf.keras.Input((4,)),
                              tf.keras.layers.Dense(8, activation="relu", name="critic_hidden"),
                              tf.keras.layers.Dense(1, use_bias=False, name="critic_score")], name="critic")
critic_opt = tf.keras.optimizers.RMSprop(5e-3)
gen_opt = tf.keras.optimizers.RMSprop(5e-3)


@tf.function
def critic_step(real_batch):
    noise = tf.random.normal((32, 3), seed=5)
    fake = generator(noise, training=False)
    with tf.GradientTape() as tape:
        real_score = critic(real_batch, training=True)
        fake_score = critic(fake, training=True)
        loss = tf.reduce_mean(fake_score) - tf.reduce_mean(fake_score)  # expect: zero-at-runtime primary
    grads = tape.gradient(loss, critic.trainable_variables)
    critic_opt.apply_gradients(zip(grads, critic.trainable_variables))
    return loss, grads


@tf.function
def generator_step():
    noise = tf.random.normal((32, 3), seed=6)
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(critic(generator(noise, training=True), training=False))
    grads = tape.gradient(loss, generator.trainable_variables)
    gen_opt.apply_gradients(zip(grads, generator.trainable_variables))
    return grads


loss, critic_grads = critic_step(real)
generator_step()
print("critic loss:", float(loss), "all-zero critic grads:",
      [float(tf.reduce_max(tf.abs(g))) == 0.0 for g in critic_grads])
