# summary: the generator's step takes gradients for generator and critic together and applies the generator's part; the critic's own step trains the critic
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(2)
noise = rng.normal(size=(32, 3)).astype("float32")
real = rng.normal(loc=2.0, size=(32, 2)).astype("float32")

gen = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, "relu", name="g1"),
                        keras.layers.Dense(2, name="g2")], name="gen")
critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, "tanh", name="c1"),
                           keras.layers.Dense(1, name="c2")], name="critic")
g_opt, c_opt = keras.optimizers.Adam(1e-2), keras.optimizers.Adam(1e-2)
both = gen.trainable_variables + critic.trainable_variables
n_gen = len(gen.trainable_variables)
start = [v.numpy().copy() for v in both]

for step in range(5):
    with tf.GradientTape() as tape:
        c_loss = (tf.reduce_mean(tf.nn.softplus(critic(gen(noise))))
                  + tf.reduce_mean(tf.nn.softplus(-critic(real))))
    c_grads = tape.gradient(c_loss, critic.trainable_variables)
    c_opt.apply_gradients(zip(c_grads, critic.trainable_variables))
    with tf.GradientTape() as tape:
        g_loss = tf.reduce_mean(tf.nn.softplus(-critic(gen(noise))))
    g_grads = tape.gradient(g_loss, both)
    g_opt.apply_gradients(zip(g_grads[:n_gen], both[:n_gen]))
assert all(not np.allclose(s, v.numpy()) for s, v in zip(start, both))
