# summary: a tf.data pipeline: from_tensor_slices, cache, shuffle, a map of stateless random flips and brightness with per-element seeds, batch, prefetch(AUTOTUNE), into fit of a small CNN with Rescaling
# source: https://www.tensorflow.org/tutorials/images/data_augmentation
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(22)
rng = np.random.default_rng(22)
images = rng.integers(0, 255, size=(48, 12, 12, 3)).astype("float32")
labels = rng.integers(0, 4, size=(48,)).astype("int32")
AUTOTUNE = tf.data.AUTOTUNE


def augment(image_label, seed):
    image, label = image_label
    image = tf.image.stateless_random_flip_left_right(image, seed=seed)
    image = tf.image.stateless_random_brightness(image, max_delta=20.0, seed=seed)
    return tf.clip_by_value(image, 0.0, 255.0), label


counter = tf.data.Dataset.counter()
ds = tf.data.Dataset.from_tensor_slices((images, labels)).cache().shuffle(48, seed=22)
ds = tf.data.Dataset.zip((ds, tf.data.Dataset.zip((counter, counter))))
ds = ds.map(augment, num_parallel_calls=AUTOTUNE).batch(16).prefetch(AUTOTUNE)
model = keras.Sequential([keras.Input((12, 12, 3)), layers.Rescaling(1.0 / 255),
                          layers.Conv2D(4, 3, activation="relu", name="conv"), layers.MaxPooling2D(),
                          layers.Flatten(), layers.Dense(4, name="logits")], name="augmented_cnn")
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(ds, epochs=2, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
