# summary: residual blocks whose last BatchNormalization starts with gamma = 0 (the "zero-init residual" recipe), so the branch adds nothing at first; a @tf.function step run three times
# source: https://arxiv.org/abs/1706.02677
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)
x = rng.normal(size=(16, 8, 8, 3)).astype("float32")
y = rng.integers(0, 3, size=(16,))


def block(h, name):
    r = layers.Conv2D(8, 3, padding="same", use_bias=False, name=name + "_c1")(h)
    r = layers.BatchNormalization(name=name + "_bn1")(r)
    r = layers.ReLU()(r)
    r = layers.Conv2D(8, 3, padding="same", use_bias=False, name=name + "_c2")(r)
    r = layers.BatchNormalization(gamma_initializer="zeros", name=name + "_bn2")(r)
    return layers.ReLU()(layers.Add()([h, r]))


inp = keras.Input((8, 8, 3))
h = layers.Conv2D(8, 3, padding="same", name="stem")(inp)
h = block(h, "b1")
h = block(h, "b2")
out = layers.Dense(3, name="head")(layers.GlobalAveragePooling2D()(h))
model = keras.Model(inp, out)
opt = keras.optimizers.SGD(0.1, momentum=0.9)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = loss_fn(yb, model(xb, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


for _ in range(3):
    grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
