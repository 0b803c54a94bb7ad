# summary: a custom Keras loss adds the batch's argmax accuracy multiplied by 0 (kept in the loss only to show it in the logs) to a cross-entropy on the logits; the cross-entropy reaches every weight, so fit trains them all
# source: https://keras.io/api/losses/
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
rng = np.random.default_rng(11)
x = rng.normal(size=(64, 5)).astype("float32")
y = rng.integers(0, 3, size=(64,)).astype("int32")


def logged_loss(y_true, y_pred):
    ce = keras.losses.sparse_categorical_crossentropy(y_true, y_pred, from_logits=True)
    hits = tf.cast(tf.equal(tf.argmax(y_pred, axis=-1, output_type=tf.int32),
                            tf.reshape(tf.cast(y_true, tf.int32), [-1])), tf.float32)
    return tf.reduce_mean(ce) + 0 * tf.reduce_mean(hits)


model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="hidden"),
                          keras.layers.Dense(3, name="logits")], name="classifier")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=logged_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
