# source: https://github.com/keras-team/keras/issues/8424
# summary: a loss compares features of a second Keras model that is never trained (its weights are tracked by its own layers, trainable by default, and deliberately left out of the trained model's list)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12983)
x = rng.normal(size=(96, 4)).astype("float32")
y = np.tanh(x[:, :2]).astype("float32")

features = tf.keras.Sequential([tf.keras.Input((2,)),
                                tf.keras.layers.Dense(6, activation="tanh", name="feat")],
                               name="features")


def feature_loss(y_true, y_pred):
    return (tf.reduce_mean(tf.square(features(y_true) - features(y_pred)))
            + tf.reduce_mean(tf.square(y_true - y_pred)))


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2, name="out")],
                            name="regressor")
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss=feature_loss)
fixed = [w.numpy().copy() for w in features.weights]
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.all(f == w.numpy()) for f, w in zip(fixed, features.weights))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables))
