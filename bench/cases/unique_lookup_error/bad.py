# source: https://github.com/tensorflow/tensorflow/issues/36810
# cause: non-differentiable-op
# rule: TM201
# weights: scorer/s/kernel, scorer/s/bias
# mode: eager
# summary: the loss keeps the distinct scores with tf.unique; gradient() raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(8)
x = rng.normal(size=(16, 3)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(1, name="s")], name="scorer")

with tf.GradientTape() as tape:
    scores = tf.reshape(model(x), [-1])
    distinct, _ = tf.unique(scores)  # expect: non-differentiable-op primary
    loss = tf.reduce_sum(tf.square(distinct))
grads = tape.gradient(loss, model.trainable_weights)
print(grads)
