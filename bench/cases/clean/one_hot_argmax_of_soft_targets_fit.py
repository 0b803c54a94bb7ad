# source: https://keras.io/examples/vision/mixup/
# summary: targets stored as soft (mixed) probabilities; a custom loss turns the targets, not the predictions, into hard labels with tf.argmax and tf.one_hot for one term and keeps the soft targets for another; compiled and fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


def hard_and_soft_loss(y_true, y_pred):
    hard = tf.one_hot(tf.argmax(y_true, axis=-1), depth=4)
    return (0.5 * keras.losses.categorical_crossentropy(hard, y_pred)
            + 0.5 * keras.losses.categorical_crossentropy(y_true, y_pred))


rng = np.random.default_rng(24)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.dirichlet(np.ones(4), 32).astype("float32")
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(4, activation="softmax", name="out")])
model.compile("adam", hard_and_soft_loss)
before = [w.copy() for w in model.get_weights()]
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
