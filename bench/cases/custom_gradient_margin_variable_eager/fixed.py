# summary: the gradient function takes `variables` and returns the margin's gradient, the sum of upstream times the unscaled logits
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21756)
x = tf.constant(rng.normal(size=(20, 5)).astype("float32"))
labels = tf.constant(rng.integers(0, 3, size=(20,)))
projection = tf.Variable(rng.normal(size=(5, 3)).astype("float32") * 0.1, name="projection")
margin = tf.Variable(4.0, name="margin")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.custom_gradient
def margin_logits(z):
    def grad(upstream, variables=None):
        return upstream * margin, [tf.reduce_sum(upstream * z) for _ in variables]
    return z * margin, grad


for step in range(2):
    with tf.GradientTape() as tape:
        logits = margin_logits(tf.matmul(x, projection))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    grads = tape.gradient(loss, [projection, margin])
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
    optimizer.apply_gradients(zip(grads, [projection, margin]))
