# source: https://github.com/tensorflow/tensorflow/issues/47064
# cause: outside-tape
# weights: clf/hidden/kernel, clf/hidden/bias, clf/logits/kernel, clf/logits/bias
# mode: eager
# summary: a tape.stop_recording() block meant to keep an accuracy computation off the tape also wraps the forward pass, so the loss is built from an unrecorded output and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(47064)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, 0] - x[:, 3] > 0).astype("int32")
model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                             tf.keras.layers.Dense(2, name="logits")], name="clf")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    with tape.stop_recording():  # expect: outside-tape primary
        logits = model(x, training=True)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, -1, output_type=tf.int32), y), tf.float32))
    loss = loss_fn(y, logits)
grads = tape.gradient(loss, model.trainable_variables)
print("accuracy", float(accuracy), "grads None:", [g is None for g in grads])
