# source: https://github.com/tensorflow/tensorflow/issues/32
# cause: non-differentiable-op|integer-dtype
# weights: reader/frames/kernel, reader/frames/bias
# mode: function
# summary: a sequence recogniser is trained on the edit distance between its greedy CTC decoding and the label; the decoder emits integer labels and EditDistance has no gradient, so apply_gradients gets no gradient for any variable
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(32)
frames = tf.constant(rng.normal(size=(4, 10, 5)).astype("float32"))
label_values = rng.integers(1, 4, size=(4, 3))
labels = tf.sparse.from_dense(tf.constant(label_values, dtype=tf.int64))
model = tf.keras.Sequential([tf.keras.Input((10, 5)),
                             tf.keras.layers.Dense(5, name="frames")], name="reader")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, truth):
    with tf.GradientTape() as tape:
        logits = tf.transpose(model(x, training=True), [1, 0, 2])
        decoded, _ = tf.nn.ctc_greedy_decoder(logits, tf.fill([4], 10), blank_index=0)  # expect: non-differentiable-op|integer-dtype primary
        loss = tf.reduce_mean(tf.edit_distance(tf.cast(decoded[0], tf.int64), truth))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(frames, labels)))
