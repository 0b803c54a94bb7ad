# source: https://github.com/tensorflow/tensorflow/issues/10002
# cause: non-differentiable-op
# weights: bag_model/token_proj/kernel, bag_model/token_proj/bias
# mode: function
# summary: a bag-of-tokens regressor scores each token, packs the scores into a SparseTensor indexed by (document, slot) and pools each document with tf.sparse.reduce_sum(..., output_is_sparse=True) to keep the result sparse; SparseReduceSumSparse has no registered gradient, so the gradient call raises LookupError
# lint: yes
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
        pooled = tf.sparse.reduce_sum(bag, axis=1, output_is_sparse=True)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(tf.sparse.to_dense(pooled) - labels))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step()
