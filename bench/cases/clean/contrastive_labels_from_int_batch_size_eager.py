# summary: an eager CLIP-style contrastive step: the batch size read with int(tf.shape(logits)[0]) inside the tape gives the integer labels tf.range(n) of both cross-entropies; numpy accuracy logged inside the with block from logits.numpy()
# source: https://keras.io/examples/vision/nl_image_search/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(66)
rng = np.random.default_rng(66)
img = tf.constant(rng.normal(size=(8, 12)).astype("float32"))
txt = tf.constant(rng.normal(size=(8, 6)).astype("float32"))
img_enc = keras.Sequential([keras.Input((12,)), layers.Dense(8, name="img_proj")], name="image_encoder")
txt_enc = keras.Sequential([keras.Input((6,)), layers.Dense(8, name="txt_proj")], name="text_encoder")
opt = keras.optimizers.Adam(1e-3)
with tf.GradientTape() as tape:
    a = tf.math.l2_normalize(img_enc(img), axis=1)
    b = tf.math.l2_normalize(txt_enc(txt), axis=1)
    logits = tf.matmul(a, b, transpose_b=True) / 0.07
    n = int(tf.shape(logits)[0])
    labels = tf.range(n)
    loss = 0.5 * (tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
                  + tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, tf.transpose(logits))))
    acc = np.mean(np.argmax(logits.numpy(), axis=1) == np.arange(n))
    print(f"loss {float(loss):.3f} acc {acc:.2f}")
weights = img_enc.trainable_weights + txt_enc.trainable_weights
grads = tape.gradient(loss, weights)
opt.apply_gradients(zip(grads, weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
