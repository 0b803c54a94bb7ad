# summary: the critic loss is mean(fake_score) - mean(real_score), so it separates the real from the generated batch and every critic weight (and, in its own step, every generator weight) gets a gradient
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
        loss = tf.reduce_mean(fake_score) - tf.reduce_mean(real_score)
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
gen_grads = generator_step()
grads = list(critic_grads) + list(gen_grads)
assert len(grads) == 7
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
