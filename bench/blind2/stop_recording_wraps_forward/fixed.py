# summary: only the accuracy is computed under stop_recording; the forward pass and the loss are recorded, so every weight gets a gradient
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
    logits = model(x, training=True)
    with tape.stop_recording():
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, -1, output_type=tf.int32), y), tf.float32))
    loss = loss_fn(y, logits)
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
