# source: https://keras.io/examples/audio/ctc_asr/
# summary: a speech-recognition style model trained with tf.nn.ctc_loss in a tf.function step: dense integer labels, integer label and logit lengths computed with tf.shape and tf.math.count_nonzero, blank last
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
T, FEAT, CLASSES = 12, 5, 6  # the last class is the blank
model = keras.Sequential([keras.Input((T, FEAT)),
                          keras.layers.Bidirectional(keras.layers.GRU(8, return_sequences=True)),
                          keras.layers.Dense(CLASSES)], name="asr")
opt = keras.optimizers.Adam(1e-3)
rng = np.random.default_rng(5)
x = tf.constant(rng.normal(size=(4, T, FEAT)), tf.float32)
labels = np.zeros((4, 5), "int32")
for i, n in enumerate((3, 4, 5, 2)):
    labels[i, :n] = rng.integers(1, CLASSES - 1, n)
labels = tf.constant(labels)


@tf.function
def step(features, y):
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        label_length = tf.cast(tf.math.count_nonzero(y, axis=1), tf.int32)
        logit_length = tf.fill([tf.shape(logits)[0]], tf.shape(logits)[1])
        loss = tf.reduce_mean(tf.nn.ctc_loss(y, logits, label_length, logit_length,
                                             logits_time_major=False, blank_index=-1))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step(x, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
