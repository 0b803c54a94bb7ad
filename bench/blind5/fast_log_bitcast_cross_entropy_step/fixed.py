# summary: the cross-entropy uses tf.math.log, so the loss is differentiable in the probabilities and every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7031)
x = rng.normal(size=(64, 8)).astype("float32")
y = tf.one_hot(rng.integers(0, 3, size=64), 3)

model = tf.keras.Sequential([tf.keras.Input((8,)),
                             tf.keras.layers.Dense(16, activation="relu", name="fl_hidden"),
                             tf.keras.layers.Dense(3, activation="softmax", name="fl_out")],
                            name="fastlog_net")


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        probs = model(features, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(labels * tf.math.log(probs + 1e-7), axis=-1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
