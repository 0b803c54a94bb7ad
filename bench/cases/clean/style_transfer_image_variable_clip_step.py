# summary: neural style transfer: a tf.Variable image is the only source, a fixed feature extractor (its Dense/Conv weights not sources), Gram-matrix style + content losses and total variation, apply_gradients then assign(clip_by_value(image, 0, 1))
# source: https://www.tensorflow.org/tutorials/generative/style_transfer
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(30)
rng = np.random.default_rng(30)
content_image = rng.uniform(size=(1, 12, 12, 3)).astype("float32")
style_image = rng.uniform(size=(1, 12, 12, 3)).astype("float32")
inp = keras.Input((12, 12, 3))
block1 = layers.Conv2D(4, 3, padding="same", activation="relu", name="block1_conv")(inp)
block2 = layers.Conv2D(4, 3, padding="same", activation="relu", name="block2_conv")(block1)
extractor = keras.Model(inp, [block1, block2], name="extractor")
extractor.trainable = False


def gram_matrix(t):
    result = tf.linalg.einsum("bijc,bijd->bcd", t, t)
    shape = tf.shape(t)
    return result / tf.cast(shape[1] * shape[2], tf.float32)


style_targets = [gram_matrix(f) for f in extractor(style_image)]
content_target = extractor(content_image)[1]
image = tf.Variable(content_image)
opt = keras.optimizers.Adam(learning_rate=0.02, beta_1=0.99, epsilon=1e-1)


@tf.function
def train_step(img):
    with tf.GradientTape() as tape:
        s1, c = extractor(img)
        style_loss = tf.add_n([tf.reduce_mean((gram_matrix(o) - t) ** 2)
                               for o, t in zip([s1, c], style_targets)])
        content_loss = tf.reduce_mean((c - content_target) ** 2)
        loss = 1e-2 * style_loss + 1e4 * content_loss + 30 * tf.image.total_variation(img)[0]
    grad = tape.gradient(loss, img)
    opt.apply_gradients([(grad, img)])
    img.assign(tf.clip_by_value(img, clip_value_min=0.0, clip_value_max=1.0))


start = image.numpy().copy()
for _ in range(3):
    train_step(image)
assert not np.allclose(start, image.numpy())
