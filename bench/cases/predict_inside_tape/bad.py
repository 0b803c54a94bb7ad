# source: https://github.com/tensorflow/tensorflow/issues/38119
# cause: host-round-trip
# rule: TM301
# weights: net/dense/kernel, net/dense/bias, net/cls/kernel, net/cls/bias
# mode: eager
# summary: the training loss is computed from model.predict(...) inside the tape
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(14)
x = rng.normal(size=(32, 6)).astype("float32")
labels = tf.one_hot(rng.integers(0, 3, size=32), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="dense"),
                             tf.keras.layers.Dense(3, activation="softmax", name="cls")],
                            name="net")
optimizer = tf.keras.optimizers.Adam(1e-2)

with tf.GradientTape() as tape:
    pred = model.predict(x, verbose=0)  # expect: host-round-trip primary
    loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, pred))
grads = tape.gradient(loss, model.trainable_variables)
print(float(loss), grads)
