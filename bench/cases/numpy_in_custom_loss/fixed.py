# summary: the loss stays a TensorFlow computation on the prediction tensor
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
    return tf.reduce_mean(weights * (y_true - y_pred) ** 2)


for step in range(2):
    with tf.GradientTape() as tape:
        loss = weighted_mse(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    print(step, float(loss))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
