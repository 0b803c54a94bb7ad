# source: https://github.com/tensorflow/tensorflow/issues/12252
# cause: variable-assign
# rule: TM402
# weights: regressor/hidden/kernel, regressor/hidden/bias, regressor/out/kernel, regressor/out/bias
# mode: function
# summary: the cost is a keras.metrics.MeanAbsoluteError object called on the targets and predictions; a metric accumulates into its own variables and its result is read back from them, so no gradient reaches the model
# lint: yes
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
        cost = mae(targets, model(features, training=True))  # expect: variable-assign primary
    grads = tape.gradient(cost, model.trainable_variables)
    return grads


print([g is None for g in train_step(x, y)])
