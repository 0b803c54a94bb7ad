# source: https://www.giomin.com/introduction-to-tf-gradienttape/
# cause: outside-tape
# weights: price_model/price_hidden/kernel, price_model/price_hidden/bias, price_model/price_out/kernel, price_model/price_out/bias
# mode: eager
# summary: a training loop creates tape = tf.GradientTape() and runs the forward pass without entering it (no with block); the tape never records, and tape.gradient fails with "A non-persistent GradientTape can only be used to compute one set of gradients", which sends the user looking for a second gradient call that does not exist
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(42)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="price_hidden"),
                          keras.layers.Dense(1, name="price_out")], name="price_model")

tape = tf.GradientTape()  # expect: outside-tape primary
loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, model.trainable_variables)
print({v.path: None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
