# source: https://github.com/google-research/simclr/issues/151
# summary: a self-supervised encoder is trained by its own reconstruction loss while a linear probe reads tf.stop_gradient of the features so that the probe's classification loss does not shape the encoder; the encoder gets gradients from its loss and the probe from its own, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(26)
x = rng.normal(size=(64, 10)).astype("float32")
y = (x[:, 0] > 0).astype("int32")

encoder = tf.keras.layers.Dense(6, activation="tanh", name="ss_encoder")
decoder = tf.keras.layers.Dense(10, name="ss_decoder")
probe = tf.keras.layers.Dense(2, name="ss_probe")
inputs = tf.keras.Input((10,))
feats = encoder(inputs)
model = tf.keras.Model(inputs, [decoder(feats), probe(feats)], name="ssl")
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        h = encoder(features)
        recon_loss = tf.reduce_mean(tf.square(decoder(h) - features))
        probe_loss = xent(labels, probe(tf.stop_gradient(h)))
        loss = recon_loss + probe_loss
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
