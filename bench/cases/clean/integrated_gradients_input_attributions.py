# summary: integrated gradients: interpolated inputs between a zero baseline and an image, gradients of the target class's softmax probability with respect to the (watched) inputs, a trapezoidal Riemann sum; no weight is a source on purpose
# source: https://www.tensorflow.org/tutorials/interpretability/integrated_gradients
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(31)
model = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, activation="relu", name="conv"),
                          layers.GlobalAveragePooling2D(), layers.Dense(5, name="logits")], name="classifier")
image = tf.constant(np.random.default_rng(31).uniform(size=(8, 8, 1)).astype("float32"))
baseline = tf.zeros(shape=(8, 8, 1))
alphas = tf.linspace(start=0.0, stop=1.0, num=11)


def interpolate_images(baseline, image, alphas):
    alphas_x = alphas[:, tf.newaxis, tf.newaxis, tf.newaxis]
    delta = image[tf.newaxis] - baseline[tf.newaxis]
    return baseline[tf.newaxis] + alphas_x * delta


def compute_gradients(images, target_class_idx):
    with tf.GradientTape() as tape:
        tape.watch(images)
        probs = tf.nn.softmax(model(images), axis=-1)[:, target_class_idx]
    return tape.gradient(probs, images)


def integral_approximation(gradients):
    grads = (gradients[:-1] + gradients[1:]) / tf.constant(2.0)
    return tf.math.reduce_mean(grads, axis=0)


target = int(tf.argmax(model(image[tf.newaxis])[0]))
path_gradients = compute_gradients(interpolate_images(baseline, image, alphas), target)
attributions = (image - baseline) * integral_approximation(path_gradients)
assert float(tf.reduce_sum(tf.abs(attributions))) > 0.0
