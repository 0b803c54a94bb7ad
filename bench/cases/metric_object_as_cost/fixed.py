# summary: the cost is a keras.losses.MeanAbsoluteError loss on the batch; the metric object only tracks it for reporting
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12252)
x = tf.constant(rng.normal(size=(32, 4)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 1)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="hidden"),
                             tf.keras.layers.Dense(1, name="out")], name="regressor")
mae = tf.keras.metrics.MeanAbsoluteError()
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        prediction = model(features, training=True)
        cost = tf.reduce_mean(tf.keras.losses.MeanAbsoluteError()(targets, prediction))
    mae.update_state(targets, prediction)
    grads = tape.gradient(cost, model.trainable_variables)
    return grads


grads = train_step(x, y)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("ok", float(mae.result()))
