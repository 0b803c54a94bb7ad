# source: https://github.com/tensorflow/tensorflow/issues/26404
# cause: sources-mismatch
# rule: TM107
# weights: resnet/bn/moving_mean, resnet/bn/moving_variance
# mode: eager
# summary: gradients are taken for model.variables, which include BatchNorm's moving statistics
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(27)
x = rng.normal(size=(16, 5)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(6, name="conv"),
                             tf.keras.layers.BatchNormalization(name="bn"),
                             tf.keras.layers.Dense(1, name="fc")], name="resnet")

with tf.GradientTape() as tape:
    prediction = model(x, training=True)
    loss = tf.reduce_mean(tf.square(prediction - y))
grads = tape.gradient(loss, model.variables)  # expect: sources-mismatch primary
print([v.path for v, g in zip(model.variables, grads, strict=False) if g is None])
