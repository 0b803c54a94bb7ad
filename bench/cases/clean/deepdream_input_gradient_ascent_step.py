# summary: DeepDream: gradient ascent on the image (watched tensor, not a variable), the mean activation of chosen layers as the loss, the gradient normalised by its std, img + step * grad clipped to [-1, 1], a tf.function with an input_signature
# source: https://www.tensorflow.org/tutorials/generative/deepdream
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(40)
inp = keras.Input((16, 16, 3))
mixed1 = layers.Conv2D(4, 3, padding="same", activation="relu", name="mixed1")(inp)
mixed2 = layers.Conv2D(4, 3, padding="same", activation="relu", name="mixed2")(mixed1)
dream_model = keras.Model(inp, [mixed1, mixed2], name="dream")


def calc_loss(img, model):
    layer_activations = model(tf.expand_dims(img, axis=0))
    return tf.reduce_sum([tf.math.reduce_mean(act) for act in layer_activations])


@tf.function(input_signature=(tf.TensorSpec(shape=[16, 16, 3], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.float32)))
def deepdream(img, steps, step_size):
    loss = tf.constant(0.0)
    for n in tf.range(steps):
        with tf.GradientTape() as tape:
            tape.watch(img)
            loss = calc_loss(img, dream_model)
        gradients = tape.gradient(loss, img)
        gradients /= tf.math.reduce_std(gradients) + 1e-8
        img = img + gradients * step_size
        img = tf.clip_by_value(img, -1, 1)
    return loss, img


start = tf.constant(np.random.default_rng(40).uniform(-0.5, 0.5, size=(16, 16, 3)).astype("float32"))
loss, dreamed = deepdream(start, tf.constant(4), tf.constant(0.01))
assert not np.allclose(start.numpy(), dreamed.numpy())
