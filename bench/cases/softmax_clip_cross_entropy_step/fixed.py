# summary: the step takes the logits (tf.nn.softmax_cross_entropy_with_logits): exact gradients however large the logits
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6983)
readings = (rng.normal(size=(32, 5)) * 2000.0).astype("float32")  # raw sensor units
labels = tf.one_hot(rng.integers(0, 3, size=32), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((5,)), tf.keras.layers.Dense(3, name="head")],
                            name="readings")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


loss, grads = train_step(readings, labels)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
