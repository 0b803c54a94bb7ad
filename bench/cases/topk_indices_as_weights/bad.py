# source: https://github.com/teddykoker/torchsort/issues/24
# cause: integer-dtype|non-differentiable-op
# rule: TM202
# weights: selector/att/kernel, selector/att/bias
# mode: eager
# summary: the loss is built from the top-k *indices* of the attention scores (int32)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(39)
x = rng.normal(size=(8, 6)).astype("float32")
wanted = tf.constant(rng.integers(0, 10, size=(8, 3)).astype("float32"))
model = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(10, name="att")],
                            name="selector")

with tf.GradientTape() as tape:
    scores = model(x)
    top = tf.math.top_k(scores, k=3)  # expect: integer-dtype|non-differentiable-op primary
    chosen = tf.cast(top.indices, tf.float32)  # accept: integer-dtype|non-differentiable-op
    loss = tf.reduce_mean(tf.square(chosen - wanted))
grads = tape.gradient(loss, model.trainable_variables)
print(grads)
