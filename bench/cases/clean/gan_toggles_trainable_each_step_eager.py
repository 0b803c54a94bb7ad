# summary: an eager GAN loop freezes the discriminator for the generator's step and unfreezes it before its own step; both lists hold the right weights: nothing to report
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(6)
rng = np.random.default_rng(6)
real = (rng.normal(size=(16, 2)) * 0.3 + 1.0).astype("float32")

gen = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="g_out")], name="gen")
disc = tf.keras.Sequential([tf.keras.Input((2,)),
                            tf.keras.layers.Dense(4, activation="tanh", name="d_hidden"),
                            tf.keras.layers.Dense(1, name="d_out")], name="disc")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
d_opt, g_opt = tf.keras.optimizers.SGD(0.05), tf.keras.optimizers.SGD(0.05)
checked = []
for _ in range(2):
    noise = tf.random.normal((16, 3))
    disc.trainable = True
    with tf.GradientTape() as tape:
        real_score, fake_score = disc(real), disc(gen(noise))
        d_loss = bce(tf.ones_like(real_score), real_score) + bce(tf.zeros_like(fake_score), fake_score)
    d_grads = tape.gradient(d_loss, disc.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, disc.trainable_variables))
    disc.trainable = False
    with tf.GradientTape() as tape:
        score = disc(gen(noise))
        g_loss = bce(tf.ones_like(score), score)
    g_grads = tape.gradient(g_loss, gen.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, gen.trainable_variables))
    checked.append(len(d_grads) == 4 and len(g_grads) == 2
                   and all(g is not None for g in d_grads + g_grads))
assert all(checked), checked
print("ok")
