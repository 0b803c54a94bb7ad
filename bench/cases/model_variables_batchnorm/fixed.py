# summary: gradients are taken for model.trainable_variables only
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
optimizer = tf.keras.optimizers.SGD(0.01)

with tf.GradientTape() as tape:
    prediction = model(x, training=True)
    loss = tf.reduce_mean(tf.square(prediction - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
named = [v.path for v, g in zip(model.trainable_variables, grads, strict=False)
         if g is None or float(tf.reduce_max(tf.abs(g))) == 0]
assert not named, named
