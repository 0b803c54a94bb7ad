# summary: the recogniser is trained with tf.nn.ctc_loss on the logits; the decoded edit distance is only reported
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(32)
frames = tf.constant(rng.normal(size=(4, 10, 5)).astype("float32"))
label_values = rng.integers(1, 4, size=(4, 3))
labels = tf.constant(label_values, dtype=tf.int32)
model = tf.keras.Sequential([tf.keras.Input((10, 5)),
                             tf.keras.layers.Dense(5, name="frames")], name="reader")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, truth):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.ctc_loss(truth, logits, tf.fill([4], 3), tf.fill([4], 10),
                                             logits_time_major=False, blank_index=0))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    decoded, _ = tf.nn.ctc_greedy_decoder(tf.transpose(logits, [1, 0, 2]), tf.fill([4], 10),
                                          blank_index=0)
    distance = tf.edit_distance(tf.cast(decoded[0], tf.int64),
                                tf.sparse.from_dense(tf.cast(truth, tf.int64)))
    return grads, distance


grads, _ = train_step(frames, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
