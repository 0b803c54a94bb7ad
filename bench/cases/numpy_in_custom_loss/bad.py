# source: https://github.com/tensorflow/tensorflow/issues/50111
# cause: host-round-trip
# rule: TM301
# weights: regressor/hidden/kernel, regressor/hidden/bias, regressor/out/kernel, regressor/out/bias
# mode: eager
# summary: a custom training loop whose loss converts the prediction to a NumPy array
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="hidden"),
                             tf.keras.layers.Dense(1, name="out")], name="regressor")
optimizer = tf.keras.optimizers.SGD(0.05)
weights = np.linspace(0.5, 1.5, 32, dtype="float32")[:, None]


def weighted_mse(y_true, y_pred):
    pred = y_pred.numpy()  # expect: host-round-trip primary
    return tf.reduce_mean(weights * (y_true - pred) ** 2)


for step in range(2):
    with tf.GradientTape() as tape:
        loss = weighted_mse(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    print(step, float(loss), [g is None for g in grads])
