# source: https://github.com/cbfinn/maml/issues/50
# cause: non-differentiable-op
# rule: -
# weights: roi_conv_kernel, roi_head_kernel
# mode: eager
# summary: a second-order MAML loop adapts a region classifier whose features are cropped with tf.image.crop_and_resize (ROI align) and differentiates the query loss through the inner update; the image gradient of the crop, CropAndResizeGradImage, has no gradient of its own, so the outer tape.gradient raises LookupError
# lint: no (crop_and_resize is differentiable once; only the second derivative is missing)
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
    regions = tf.image.crop_and_resize(features, boxes, box_index, (4, 4))  # expect: non-differentiable-op primary
    return tf.reshape(regions, (-1, 4 * 4 * 4)) @ head_w


def xent(labels, logits):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = xent(support_y, logits_of(support, conv_kernel, head_kernel))
    g_conv, g_head = inner.gradient(support_loss, [conv_kernel, head_kernel])
    query_loss = xent(query_y, logits_of(query, conv_kernel - 0.1 * g_conv, head_kernel - 0.1 * g_head))
grads = outer.gradient(query_loss, [conv_kernel, head_kernel])
print([g is None for g in grads])
