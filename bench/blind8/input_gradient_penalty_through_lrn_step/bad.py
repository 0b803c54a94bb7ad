# source: https://github.com/tensorflow/tensorflow/issues/22825
# cause: non-differentiable-op
# rule: -
# weights: cifar_conv/kernel, cifar_conv/bias, cifar_logits/kernel, cifar_logits/bias
# mode: function
# summary: a CIFAR-style classifier keeps the tutorial's tf.nn.local_response_normalization after its convolution; the traced step adds a double-backprop penalty (the squared gradient of the cross-entropy with respect to the input images), and differentiating that penalty needs the gradient of LRNGrad, which has none, so tape.gradient raises LookupError
# lint: no (LRN is differentiable once; only the second derivative is missing)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22825)
images = rng.uniform(size=(8, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 4, size=8).astype("int32")

conv = keras.layers.Conv2D(6, 3, padding="same", activation="relu", name="cifar_conv")
head = keras.layers.Dense(4, name="cifar_logits")
conv.build((None, 8, 8, 3))
head.build((None, 8 * 8 * 6))
variables = conv.trainable_variables + head.trainable_variables


def logits_of(x):
    h = conv(x)
    h = tf.nn.local_response_normalization(h, depth_radius=2, bias=1.0, alpha=1e-3, beta=0.75)  # expect: non-differentiable-op primary
    return head(tf.reshape(h, (-1, 8 * 8 * 6)))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as input_tape:
            input_tape.watch(x)
            xent = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits_of(x), from_logits=True))
        input_grad = input_tape.gradient(xent, x)
        loss = xent + 0.1 * tf.reduce_mean(tf.reduce_sum(tf.square(input_grad), axis=[1, 2, 3]))
    return tape.gradient(loss, variables)


grads = train_step(tf.constant(images), tf.constant(labels))
print({v.path: g is None for v, g in zip(variables, grads)})
