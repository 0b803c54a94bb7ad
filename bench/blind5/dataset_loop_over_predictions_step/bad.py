# source: https://github.com/tensorflow/tensorflow/issues/36306
# cause: non-differentiable-op|not-connected
# weights: forecaster/fc_hidden/kernel, forecaster/fc_hidden/bias, forecaster/fc_out/kernel, forecaster/fc_out/bias
# mode: function
# summary: a forecasting step accumulates a per-window error by wrapping the predictions in tf.data.Dataset.from_tensor_slices(...).batch(4) and looping over it inside the @tf.function; the dataset ops are not recorded on the tape, so the loss is disconnected from the model and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(36306)
x = rng.normal(size=(16, 6)).astype("float32")
y = x[:, :1].cumsum(axis=0).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((6,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="fc_hidden"),
                             tf.keras.layers.Dense(1, name="fc_out")], name="forecaster")


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        errors = tf.square(model(features, training=True) - targets)
        loss = tf.constant(0.0)
        for window in tf.data.Dataset.from_tensor_slices(errors).batch(4):  # expect: non-differentiable-op|not-connected primary
            loss += tf.reduce_max(window)
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
print("loss:", float(loss), [g is None for g in grads])
