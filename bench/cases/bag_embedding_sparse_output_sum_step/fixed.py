# summary: each document is pooled with tf.sparse.reduce_sum and its dense output (SparseReduceSum has a gradient), so the token projection trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(10002)
token_features = rng.normal(size=(10, 5)).astype("float32")
doc_of_token = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3], dtype="int64")
slot = np.array([0, 1, 2, 0, 1, 0, 1, 2, 3, 0], dtype="int64")
positions = np.stack([doc_of_token, slot], axis=1)
labels = rng.normal(size=(4,)).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(1, name="token_proj")], name="bag_model")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        scores = tf.reshape(model(token_features, training=True), [-1])
        bag = tf.sparse.SparseTensor(positions, scores, dense_shape=[4, 4])
        pooled = tf.sparse.reduce_sum(bag, axis=1)
        loss = tf.reduce_mean(tf.square(pooled - labels))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step()
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
