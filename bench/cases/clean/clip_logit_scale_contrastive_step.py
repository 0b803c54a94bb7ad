# summary: a CLIP-style dual encoder: L2-normalised image and text embeddings, a learned log temperature exponentiated and capped by tf.minimum(., 100) (below the cap at init), symmetric cross-entropy over the similarity matrix with tf.range labels, a tf.function step
# source: https://keras.io/examples/vision/nl_image_search/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(32)
rng = np.random.default_rng(32)
images = rng.normal(size=(16, 10)).astype("float32")
texts = rng.normal(size=(16, 7)).astype("float32")
image_enc = keras.Sequential([keras.Input((10,)), layers.Dense(8, name="img_proj")], name="image_encoder")
text_enc = keras.Sequential([keras.Input((7,)), layers.Dense(8, name="txt_proj")], name="text_encoder")
log_scale = tf.Variable(np.log(1 / 0.07), dtype=tf.float32, name="logit_scale")
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(img, txt):
    with tf.GradientTape() as tape:
        i = tf.math.l2_normalize(image_enc(img, training=True), axis=1)
        t = tf.math.l2_normalize(text_enc(txt, training=True), axis=1)
        scale = tf.minimum(tf.exp(log_scale), 100.0)
        logits = scale * tf.matmul(i, t, transpose_b=True)
        labels = tf.range(tf.shape(logits)[0])
        loss_i = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
        loss_t = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, tf.transpose(logits))
        loss = tf.reduce_mean(loss_i + loss_t) / 2.0
    weights = image_enc.trainable_variables + text_enc.trainable_variables + [log_scale]
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return loss


weights = image_enc.trainable_variables + text_enc.trainable_variables + [log_scale]
before = [w.numpy().copy() for w in weights]
for _ in range(3):
    train_step(images, texts)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, weights))
