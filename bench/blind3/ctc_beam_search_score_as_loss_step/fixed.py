# summary: the recogniser is trained with tf.nn.ctc_loss against the labels (the beam search decodes only after the tape, for reporting), so both weights get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
frames = rng.normal(size=(3, 9, 5)).astype("float32")
labels = tf.sparse.from_dense(tf.constant([[1, 2, 3], [2, 2, 1], [3, 1, 0]], dtype=tf.int32))

model = tf.keras.Sequential([tf.keras.Input((9, 5)),
                             tf.keras.layers.Dense(5, name="frames")], name="recogniser")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        logits = tf.transpose(model(batch, training=True), [1, 0, 2])
        loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, label_length=None,
                                             logit_length=tf.fill([3], 9), blank_index=0))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    decoded, _ = tf.nn.ctc_beam_search_decoder(logits, tf.fill([3], 9), beam_width=4)
    return grads


grads = train_step(frames)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
