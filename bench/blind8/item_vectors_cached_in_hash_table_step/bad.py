# source: https://github.com/tensorflow/tensorflow/issues/24539
# cause: variable-assign|not-connected
# rule: -
# weights: item_tower/item_hidden/kernel, item_tower/item_hidden/bias, item_tower/item_vector/kernel, item_tower/item_vector/bias
# mode: function
# summary: a two-tower recommender step inserts the item tower's vectors into a tf.lookup.experimental.DenseHashTable keyed by item id and reads the vectors of the clicked items back with lookup; a table is a stateful store with no gradient, so the item tower gets None while the user tower trains
# lint: no (inserting into and reading from a table is a normal cache; that the looked-up values are trained is the bug)
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
table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, default_value=tf.zeros([8]),
                                              empty_key=-1, deleted_key=-2)
variables = item_tower.trainable_variables + user_tower.trainable_variables


@tf.function
def train_step(ids, features, users, positives, negatives):
    with tf.GradientTape() as tape:
        table.insert(ids, item_tower(features, training=True))
        user_vectors = user_tower(users, training=True)
        positive_score = tf.reduce_sum(user_vectors * table.lookup(positives), axis=-1)  # expect: variable-assign|not-connected primary
        negative_score = tf.reduce_sum(user_vectors * table.lookup(negatives), axis=-1)  # accept: variable-assign|not-connected
        loss = -tf.reduce_mean(tf.math.log_sigmoid(positive_score - negative_score))
    return tape.gradient(loss, variables)


grads = train_step(item_ids, item_features, user_features, clicked, skipped)
print({v.path: g is None for v, g in zip(variables, grads)})
