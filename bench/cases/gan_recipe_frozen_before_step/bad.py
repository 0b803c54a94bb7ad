# source: https://github.com/eriklindernoren/Keras-GAN/issues/73
# cause: sources-mismatch
# rule: TM117
# weights: critic/c1/kernel, critic/c1/bias, critic/c2/kernel, critic/c2/bias
# mode: fit
# summary: the Keras 2 GAN recipe under Keras 3: the critic is frozen before its first train_on_batch traces, so it never trains
# lint: yes
import numpy as np
import keras

keras.utils.set_random_seed(0)

rng = np.random.default_rng(73)
maker = keras.Sequential([keras.Input((3,)), keras.layers.Dense(6, activation="tanh", name="m1")],
                         name="maker")
critic = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu", name="c1"),
                           keras.layers.Dense(1, activation="sigmoid", name="c2")], name="critic")
critic.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy")
critic.trainable = False  # expect: sources-mismatch primary
noise_in = keras.Input((3,))
combined = keras.Model(noise_in, critic(maker(noise_in)))
combined.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy")

before = critic.layers[0].kernel.numpy().copy()
for _ in range(3):
    noise = rng.normal(size=(8, 3)).astype("float32")
    real = rng.normal(0.5, 0.1, size=(8, 6)).astype("float32")
    fake = maker.predict(noise, verbose=0)
    critic.train_on_batch(np.concatenate([real, fake]),
                          np.concatenate([np.ones((8, 1)), np.zeros((8, 1))]))
    combined.train_on_batch(noise, np.ones((8, 1)))
print("critic changed:", bool(np.any(before != critic.layers[0].kernel.numpy())))
