# source: https://github.com/tensorflow/tensorflow/issues/6143
# cause: non-differentiable-op
# rule: -
# weights: maml_conv_kernel, maml_head_kernel
# mode: function
# summary: a second-order MAML step adapts a small conv net on the support set and differentiates the query loss through the inner update; the net pools with tf.nn.max_pool_with_argmax (kept from a SegNet-style encoder), whose gradient op MaxPoolGradWithArgmax has no gradient, so the outer tape.gradient raises LookupError
# lint: no (max_pool_with_argmax is differentiable once; only the second derivative is missing)
import numpy as np
import tensorflow as tf

tf.random.set_seed(0)

rng = np.random.default_rng(6143)
support_x = rng.normal(size=(8, 8, 8, 1)).astype("float32")
support_y = rng.integers(0, 3, size=8).astype("int32")
query_x = rng.normal(size=(8, 8, 8, 1)).astype("float32")
query_y = rng.integers(0, 3, size=8).astype("int32")

conv_kernel = tf.Variable(tf.random.normal((3, 3, 1, 4), stddev=0.3), name="maml_conv_kernel")
head_kernel = tf.Variable(tf.random.normal((4 * 4 * 4, 3), stddev=0.3), name="maml_head_kernel")


def forward(x, conv_w, head_w):
    h = tf.nn.relu(tf.nn.conv2d(x, conv_w, 1, "SAME"))
    pooled, _ = tf.nn.max_pool_with_argmax(h, 2, 2, "VALID")  # expect: non-differentiable-op primary
    return tf.reshape(pooled, (-1, 4 * 4 * 4)) @ head_w


def xent(y, logits):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))


@tf.function
def meta_step(sx, sy, qx, qy):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            support_loss = xent(sy, forward(sx, conv_kernel, head_kernel))
        g_conv, g_head = inner.gradient(support_loss, [conv_kernel, head_kernel])
        fast_conv = conv_kernel - 0.1 * g_conv
        fast_head = head_kernel - 0.1 * g_head
        query_loss = xent(qy, forward(qx, fast_conv, fast_head))
    return outer.gradient(query_loss, [conv_kernel, head_kernel])


grads = meta_step(support_x, support_y, query_x, query_y)
print([g is None for g in grads])
