# source: https://github.com/keras-team/keras/issues/13826
# summary: KL annealing: the loss closes over a tf.Variable weight (trainable by default) that a callback raises every epoch; fit does not train it and should not, the callback writes it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(13826)
x = rng.normal(size=(96, 6)).astype("float32")

kl_weight = tf.Variable(0.0, name="kl_weight")


def annealed_loss(y_true, y_pred):
    reconstruction = tf.reduce_mean(tf.square(y_true - y_pred))
    spread = tf.reduce_mean(tf.square(y_pred))
    return reconstruction + kl_weight * spread


class Anneal(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        kl_weight.assign(min(1.0, 0.5 * epoch))


model = tf.keras.Sequential([tf.keras.Input((6,)),
                             tf.keras.layers.Dense(3, activation="tanh", name="code"),
                             tf.keras.layers.Dense(6, name="recon")], name="vae_like")
model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss=annealed_loss)
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, x, epochs=3, batch_size=16, verbose=0, callbacks=[Anneal()])
assert float(kl_weight.numpy()) == 1.0
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables))
