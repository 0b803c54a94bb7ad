# source: https://github.com/keras-team/keras/issues/12503
# cause: sources-mismatch
# weights: log_noise
# mode: fit
# summary: a Gaussian negative log-likelihood loss learns its observation noise: the loss factory creates a trainable tf.Variable and closes over it; fit differentiates only the model's trainable variables, so the noise level never changes while the regressor trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12503)
x = rng.normal(size=(160, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")
     + rng.normal(scale=0.3, size=(160, 1))).astype("float32")


def gaussian_nll():
    log_noise = tf.Variable(0.0, trainable=True, name="log_noise")  # expect: sources-mismatch primary

    def loss(y_true, y_pred):
        return tf.reduce_mean(0.5 * tf.square(y_true - y_pred) * tf.exp(-2.0 * log_noise)
                              + log_noise)

    loss.log_noise = log_noise
    return loss


nll = gaussian_nll()
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, name="mean")],
                            name="regressor")
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2), loss=nll)
before = nll.log_noise.numpy()
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
print("noise level changed:", bool(before != nll.log_noise.numpy()))
