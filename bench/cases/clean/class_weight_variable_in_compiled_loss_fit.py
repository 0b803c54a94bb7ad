# summary: a weighted categorical cross-entropy whose factory holds the class weights in a tf.Variable (the Keras 2 `K.variable(weights)` idiom, trainable by default, never meant to learn), given to compile and trained with fit; every layer weight trains
# source: https://github.com/keras-team/keras/issues/2115
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2115)
x = rng.normal(size=(96, 5)).astype("float32")
labels = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0.8).astype("int32")
y = tf.keras.utils.to_categorical(labels, 3)


def weighted_crossentropy(class_weights):
    weights = tf.Variable(np.asarray(class_weights, dtype="float32"), name="class_weights")

    def loss(y_true, y_pred):
        y_pred = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
        return -tf.reduce_mean(tf.reduce_sum(y_true * tf.math.log(y_pred) * weights, axis=-1))

    return loss


model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(3, activation="softmax")])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss=weighted_crossentropy([1.0, 2.0, 4.0]))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
