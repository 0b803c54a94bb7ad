# summary: the rows are shuffled before they are cut into batches, so every batch mixes grades, the pair mask has ones and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(250)
grades = np.repeat(np.arange(4), 16).astype("float32")
features = (rng.normal(size=(64, 6)) + grades[:, None] * 0.3).astype("float32")
order = rng.permutation(64)
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
    assert len(grads) == 4
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
