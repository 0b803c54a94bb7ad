# summary: the gradients are zipped with the same list they were taken for
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(11)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

encoder = keras.Sequential([keras.Input((5,)), keras.layers.Dense(16, "relu", name="enc1"),
                            keras.layers.Dense(8, "relu", name="enc2")], name="encoder")
inputs = keras.Input((5,))
model = keras.Model(inputs, keras.layers.Dense(1, name="head")(encoder(inputs)),
                    name="regressor")
optimizer = keras.optimizers.SGD(0.05)
start = [v.numpy().copy() for v in model.trainable_variables]


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(5):
    print(epoch, float(train_step(x, y)))
assert all(not np.allclose(a, v.numpy()) for a, v in zip(start, model.trainable_variables))
