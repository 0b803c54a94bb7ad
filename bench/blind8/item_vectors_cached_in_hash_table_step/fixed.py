# summary: the step gathers the item tower's output rows by item index (ids equal row positions) instead of going through the table, so both towers get gradients
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(24539)
item_ids = np.arange(12, dtype=np.int64)
item_features = rng.normal(size=(12, 5)).astype("float32")
user_features = rng.normal(size=(24, 4)).astype("float32")
clicked = rng.integers(0, 12, size=24).astype(np.int64)
skipped = rng.integers(0, 12, size=24).astype(np.int64)

item_tower = keras.Sequential([keras.Input((5,)),
                               keras.layers.Dense(16, activation="relu", name="item_hidden"),
                               keras.layers.Dense(8, name="item_vector")], name="item_tower")
user_tower = keras.Sequential([keras.Input((4,)),
                               keras.layers.Dense(16, activation="relu", name="user_hidden"),
                               keras.layers.Dense(8, name="user_vector")], name="user_tower")
variables = item_tower.trainable_variables + user_tower.trainable_variables


@tf.function
def train_step(ids, features, users, positives, negatives):
    with tf.GradientTape() as tape:
        item_vectors = item_tower(tf.gather(features, ids), training=True)
        user_vectors = user_tower(users, training=True)
        positive_score = tf.reduce_sum(user_vectors * tf.gather(item_vectors, positives), axis=-1)
        negative_score = tf.reduce_sum(user_vectors * tf.gather(item_vectors, negatives), axis=-1)
        loss = -tf.reduce_mean(tf.math.log_sigmoid(positive_score - negative_score))
    return tape.gradient(loss, variables)


grads = train_step(item_ids, item_features, user_features, clicked, skipped)
assert len(grads) == 8
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
