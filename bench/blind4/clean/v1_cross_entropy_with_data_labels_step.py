# source: https://github.com/tensorflow/minigo/pull/149
# summary: an old training step keeps tf.compat.v1.nn.softmax_cross_entropy_with_logits, which stops the gradient into its labels; here the labels are smoothed one-hot targets built from the data, so nothing learned sits behind them and every classifier weight trains through the logits
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(149)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 4, size=(32,))

model = tf.keras.Sequential([tf.keras.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="v1_hidden"),
                             tf.keras.layers.Dense(4, name="v1_logits")], name="v1_classifier")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, labels):
    smoothed = tf.one_hot(labels, 4) * 0.9 + 0.025
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = tf.reduce_mean(tf.compat.v1.nn.softmax_cross_entropy_with_logits(
            labels=smoothed, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
