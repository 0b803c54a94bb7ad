# source: https://keras.io/examples/vision/cutmix/
# summary: CutMix in the train step: the box's corners are integers from tf.random.uniform(dtype=int32) and tf.cast, the mask is built with tf.pad of ones, labels mixed by the box's area ratio; the model sees the mixed images
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((16, 16, 3)), keras.layers.Conv2D(8, 3, activation="relu"),
                          keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(4)], name="cnn")
opt = keras.optimizers.Adam(1e-3)
images = tf.constant(np.random.default_rng(40).random((8, 16, 16, 3)), tf.float32)
labels = tf.one_hot(np.random.default_rng(41).integers(0, 4, 8), 4)


@tf.function
def step(x, y):
    size = 16
    cut = tf.random.uniform([], 4, 9, dtype=tf.int32)
    top = tf.random.uniform([], 0, size - cut, dtype=tf.int32)
    left = tf.random.uniform([], 0, size - cut, dtype=tf.int32)
    box = tf.pad(tf.ones([cut, cut]), [[top, size - top - cut], [left, size - left - cut]])
    box = box[None, :, :, None]
    perm = tf.random.shuffle(tf.range(tf.shape(x)[0]))
    mixed = x * (1 - box) + tf.gather(x, perm) * box
    lam = 1.0 - tf.cast(cut * cut, tf.float32) / float(size * size)
    y_mix = lam * y + (1 - lam) * tf.gather(y, perm)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(keras.losses.categorical_crossentropy(y_mix, model(mixed), from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step(images, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
