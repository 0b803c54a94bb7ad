# source: https://github.com/tensorflow/tensorflow/issues/21584
# summary: a traced step computes a warm-up consistency loss only to log it, resets the tape (as GradientTape.reset's documentation shows) and then runs the forward pass and the loss it differentiates: everything the gradient needs was recorded after the reset
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2158)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x[:, :1] * 2.0).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(6, activation="relu", name="warm_hidden"),
                             tf.keras.layers.Dense(1, name="warm_out")], name="warm")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        consistency = tf.reduce_mean(tf.abs(model(features) - model(features[::-1])[::-1]))
        tape.reset()
        loss = tf.reduce_mean(tf.square(model(features, training=True) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss, consistency, grads


loss, consistency, grads = train_step(x, y)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok", float(loss), float(consistency))
