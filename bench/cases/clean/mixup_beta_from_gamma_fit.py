# summary: mixup in the input pipeline: a Beta(0.2, 0.2) weight drawn as a ratio of tf.random.gamma samples, images and one-hot labels mixed in tf.data.Dataset.map, categorical crossentropy, fit
# source: https://keras.io/examples/vision/mixup/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(40)
rng = np.random.default_rng(40)
x = rng.uniform(size=(64, 8, 8, 1)).astype("float32")
y = tf.one_hot(rng.integers(0, 4, size=(64,)), 4)


def beta(size, a=0.2, b=0.2):
    g1 = tf.random.gamma([size], a)
    g2 = tf.random.gamma([size], b)
    return g1 / (g1 + g2)


def mix(ds_one, ds_two):
    (x1, y1), (x2, y2) = ds_one, ds_two
    lam = beta(tf.shape(x1)[0])
    return (x1 * tf.reshape(lam, (-1, 1, 1, 1)) + x2 * tf.reshape(1 - lam, (-1, 1, 1, 1)),
            y1 * tf.reshape(lam, (-1, 1)) + y2 * tf.reshape(1 - lam, (-1, 1)))


one = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=1).batch(16)
two = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=2).batch(16)
train = tf.data.Dataset.zip((one, two)).map(mix)
model = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, activation="relu", name="c"),
                          layers.Flatten(), layers.Dense(4, activation="softmax", name="out")])
model.compile("adam", "categorical_crossentropy", metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(train, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
