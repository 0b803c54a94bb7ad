# summary: the loss takes the logits (tf.nn.softmax_cross_entropy_with_logits): exact gradients however large the logits
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52)
images = rng.integers(0, 256, size=(6, 192)).astype("float32")  # not scaled to [0, 1]
labels = tf.one_hot(rng.integers(0, 3, size=6), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((192,)), tf.keras.layers.Dense(3, name="z")],
                            name="food")
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)

with tf.GradientTape() as tape:
    logits = model(images)
    loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
