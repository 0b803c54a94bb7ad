# source: https://github.com/tensorflow/ranking/issues/207
# cause: zero-at-runtime
# rule: -
# weights: ranker/rank_hidden/kernel, ranker/rank_hidden/bias, ranker/rank_score/kernel, ranker/rank_score/bias
# mode: function
# summary: a RankNet step scores only the pairs whose grades differ inside a batch; the exported rows are sorted by grade and the script slices consecutive batches of 16, so each batch holds one grade, the pair mask is all zero, the loss is exactly 0 and every gradient is exactly zero
# lint: no (the pair mask is correct; the data order makes it empty)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(250)
grades = np.repeat(np.arange(4), 16).astype("float32")
features = (rng.normal(size=(64, 6)) + grades[:, None] * 0.3).astype("float32")
order = np.argsort(grades, kind="stable")  # expect: zero-at-runtime primary
batches = [(features[order[i:i + 16]], grades[order[i:i + 16]]) for i in range(0, 64, 16)]

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="tanh", name="rank_hidden"),
                          keras.layers.Dense(1, name="rank_score")], name="ranker")


@tf.function
def train_step(x, grade):
    with tf.GradientTape() as tape:
        score = model(x, training=True)[:, 0]
        better = tf.cast(grade[:, None] > grade[None, :], tf.float32)
        pair_loss = tf.nn.softplus(-(score[:, None] - score[None, :]))
        loss = tf.reduce_sum(better * pair_loss) / tf.maximum(tf.reduce_sum(better), 1.0)
    return tape.gradient(loss, model.trainable_variables)


for x_batch, g_batch in batches:
    grads = train_step(x_batch, g_batch)
    print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
