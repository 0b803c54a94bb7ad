# summary: a hand-written Elman RNN: tf.while_loop over time steps writing hidden states into a tf.TensorArray, an integer loop counter, the last state fed to a classifier, a @tf.function step
# source: https://www.tensorflow.org/guide/function#loops
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(14)
x = tf.constant(rng.normal(size=(8, 5, 4)).astype("float32"))
y = tf.constant(rng.integers(0, 2, size=(8,)).astype("int32"))
wx = tf.Variable(rng.normal(size=(4, 6)).astype("float32") * 0.3, name="wx")
wh = tf.Variable(rng.normal(size=(6, 6)).astype("float32") * 0.3, name="wh")
b = tf.Variable(np.zeros(6, "float32"), name="b")
wo = tf.Variable(rng.normal(size=(6, 2)).astype("float32") * 0.3, name="wo")
opt = tf.keras.optimizers.SGD(0.1)
params = [wx, wh, b, wo]


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        steps = tf.shape(x)[1]
        states = tf.TensorArray(tf.float32, size=steps)
        h0 = tf.zeros((tf.shape(x)[0], 6))

        def body(t, h, states):
            h = tf.tanh(tf.matmul(x[:, t, :], wx) + tf.matmul(h, wh) + b)
            return t + 1, h, states.write(t, h)

        _, h, states = tf.while_loop(lambda t, h, s: t < steps, body, (0, h0, states))
        seq = states.stack()
        pooled = tf.reduce_mean(seq, axis=0) + h
        logits = tf.matmul(pooled, wo)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
