# summary: a RankNet step scores only pairs whose grades differ; the first batch happens to hold one grade (exact zero gradients for that step), the shuffled batches after it mix grades, and over the epoch every weight gets a gradient
# source: https://www.tensorflow.org/ranking/api_docs/python/tfr/keras/losses/PairwiseLogisticLoss
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
grades = np.concatenate([np.zeros(8), rng.integers(0, 3, size=24)]).astype("float32")
features = (rng.normal(size=(32, 5)) + grades[:, None] * 0.3).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="tanh", name="pair_hidden"),
                          keras.layers.Dense(1, name="pair_score")], name="pair_ranker")


@tf.function
def train_step(x, grade):
    with tf.GradientTape() as tape:
        score = model(x, training=True)[:, 0]
        better = tf.cast(grade[:, None] > grade[None, :], tf.float32)
        loss = tf.reduce_sum(better * tf.nn.softplus(score[None, :] - score[:, None])) / tf.maximum(tf.reduce_sum(better), 1.0)
    return tape.gradient(loss, model.trainable_variables)


total = [tf.zeros_like(v) for v in model.trainable_variables]
for start in range(0, 32, 8):
    grads = train_step(features[start:start + 8], grades[start:start + 8])
    total = [t + tf.abs(g) for t, g in zip(total, grads)]
assert len(total) == 4
assert all(float(tf.reduce_sum(t)) > 0 for t in total)
