# summary: the windows are formed with a tensor reshape inside the step instead of a tf.data pipeline, so the loss stays on the tape and every weight gets a gradient
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
        loss = tf.reduce_sum(tf.reduce_max(tf.reshape(errors, (-1, 4)), axis=1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
