# summary: the fixed box is cropped by slicing the feature map and average-pooling it to 4x4 (ops whose gradients are differentiable again), so the second-order meta-gradient reaches both kernels
import numpy as np
import tensorflow as tf

tf.random.set_seed(0)

rng = np.random.default_rng(50)
support = rng.normal(size=(4, 10, 10, 1)).astype("float32")
support_y = rng.integers(0, 2, size=4).astype("int32")
query = rng.normal(size=(4, 10, 10, 1)).astype("float32")
query_y = rng.integers(0, 2, size=4).astype("int32")
boxes = np.tile(np.array([[0.1, 0.1, 0.8, 0.8]], dtype="float32"), (4, 1))
box_index = np.arange(4, dtype="int32")

conv_kernel = tf.Variable(tf.random.normal((3, 3, 1, 4), stddev=0.3), name="roi_conv_kernel")
head_kernel = tf.Variable(tf.random.normal((4 * 4 * 4, 2), stddev=0.3), name="roi_head_kernel")


def logits_of(images, conv_w, head_w):
    features = tf.nn.relu(tf.nn.conv2d(images, conv_w, 1, "SAME"))
    regions = tf.nn.avg_pool2d(features[:, 1:9, 1:9, :], 2, 2, "VALID")
    return tf.reshape(regions, (-1, 4 * 4 * 4)) @ head_w


def xent(labels, logits):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = xent(support_y, logits_of(support, conv_kernel, head_kernel))
    g_conv, g_head = inner.gradient(support_loss, [conv_kernel, head_kernel])
    query_loss = xent(query_y, logits_of(query, conv_kernel - 0.1 * g_conv, head_kernel - 0.1 * g_head))
grads = outer.gradient(query_loss, [conv_kernel, head_kernel])
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
