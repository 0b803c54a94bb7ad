# summary: the critic is trainable while its own step traces and frozen while the combined one does
import numpy as np
import keras

keras.utils.set_random_seed(0)

rng = np.random.default_rng(73)
maker = keras.Sequential([keras.Input((3,)), keras.layers.Dense(6, activation="tanh", name="m1")],
                         name="maker")
critic = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu", name="c1"),
                           keras.layers.Dense(1, activation="sigmoid", name="c2")], name="critic")
critic.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy")
critic.trainable = False
noise_in = keras.Input((3,))
combined = keras.Model(noise_in, critic(maker(noise_in)))
combined.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy")

before = [w.numpy().copy() for w in critic.weights + maker.weights]
for _ in range(3):
    noise = rng.normal(size=(8, 3)).astype("float32")
    real = rng.normal(0.5, 0.1, size=(8, 6)).astype("float32")
    fake = maker.predict(noise, verbose=0)
    critic.trainable = True
    critic.train_on_batch(np.concatenate([real, fake]),
                          np.concatenate([np.ones((8, 1)), np.zeros((8, 1))]))
    critic.trainable = False
    combined.train_on_batch(noise, np.ones((8, 1)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, critic.weights + maker.weights))
