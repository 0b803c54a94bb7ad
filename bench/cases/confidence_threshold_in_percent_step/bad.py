# source: https://github.com/koyeongmin/PINet_new/issues/36
# cause: zero-at-runtime
# weights: conf_net/cf_hidden/kernel, conf_net/cf_hidden/bias, conf_net/cf_score/kernel, conf_net/cf_score/bias
# mode: function
# summary: a "hard negative" confidence loss penalises only the background cells whose sigmoid confidence is above a threshold; the threshold is written in percent (50.0) while the confidences are in (0, 1), so tf.where keeps no cell, the loss is all zeros and every weight gets exactly zero gradients in every step
# lint: no (the threshold is a value: nothing in the source says which scale the confidences are on)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(36)
cells = rng.normal(size=(64, 6)).astype("float32")

net = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu", name="cf_hidden"),
                           tf.keras.layers.Dense(1, name="cf_score")], name="conf_net")
optimizer = tf.keras.optimizers.Adam(1e-2)
THRESHOLD = 50.0


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        confidence = tf.sigmoid(net(batch))
        too_confident = confidence > THRESHOLD  # expect: zero-at-runtime primary
        hard = tf.where(too_confident, tf.square(confidence), tf.zeros_like(confidence))
        loss = tf.reduce_mean(hard)
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


for start in range(0, 64, 16):
    train_step(cells[start:start + 16])
