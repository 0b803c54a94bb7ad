# summary: the loss takes the logits (from_logits=True): no clipping needed for stability
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(28)
x = (rng.normal(size=(32, 4)) * 0.1 + 3.0).astype("float32")
y = (rng.random((32, 1)) > 0.5).astype("float32")
big = tf.keras.initializers.Constant(5.0)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(1, kernel_initializer=big, name="z")],
                            name="logit_model")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = bce(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
