# summary: Polyak averaging with tf.train.ExponentialMovingAverage: ema.apply(weights) after each optimizer step inside a @tf.function, the averages read into an evaluation copy of the model afterwards
# source: https://www.tensorflow.org/api_docs/python/tf/train/ExponentialMovingAverage
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(39)
rng = np.random.default_rng(39)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
w1 = tf.Variable(rng.normal(size=(6, 8)).astype("float32") * 0.3, name="w1")
w2 = tf.Variable(rng.normal(size=(8, 1)).astype("float32") * 0.3, name="w2")
params = [w1, w2]
ema = tf.train.ExponentialMovingAverage(decay=0.9)
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.nn.tanh(tf.matmul(xb, w1)), w2) - yb))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    ema.apply(params)
    return grads


for _ in range(3):
    grads = step(x, y)
eval_w1 = tf.identity(ema.average(w1))
print("ema drift", float(tf.norm(eval_w1 - w1)))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
