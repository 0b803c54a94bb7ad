# source: https://github.com/githubharald/CTCWordBeamSearch/issues/4
# cause: non-differentiable-op
# weights: recogniser/frames/kernel, recogniser/frames/bias
# mode: function
# summary: a handwriting recogniser is trained to maximise the log-probability that tf.nn.ctc_beam_search_decoder reports for its best beam; the beam search (CTCBeamSearchDecoder) is not differentiable, its log-probability output carries no gradient, and every recogniser weight gets None
# lint: yes
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
        _, log_probability = tf.nn.ctc_beam_search_decoder(logits, tf.fill([3], 9),  # expect: non-differentiable-op primary
                                                           beam_width=4, top_paths=1)
        loss = -tf.reduce_mean(log_probability)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(frames)
print("grads are None:", [g is None for g in grads])
