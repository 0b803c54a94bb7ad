# summary: an argmax accuracy is computed next to the loss, inside the same tape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(106)
x = rng.normal(size=(32, 5)).astype("float32")
labels = rng.integers(0, 4, size=32)
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(4, name="logits")], name="clf")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    logits = model(x)
    loss = loss_fn(labels, logits)
    predicted = tf.argmax(logits, axis=-1, output_type=tf.int32)
    accuracy = tf.reduce_mean(tf.cast(predicted == labels, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
print(float(loss), float(accuracy))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
