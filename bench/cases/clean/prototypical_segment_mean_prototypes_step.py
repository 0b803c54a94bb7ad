# summary: prototypical networks: class prototypes as tf.math.unsorted_segment_mean of support embeddings by integer labels, negative squared distances of query embeddings as logits, eager episode step
# source: https://arxiv.org/abs/1703.05175
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(34)
rng = np.random.default_rng(34)
n_way, k_shot = 3, 4
support = tf.constant(rng.normal(size=(n_way * k_shot, 10)).astype("float32"))
s_lab = tf.constant(np.repeat(np.arange(n_way), k_shot).astype("int32"))
query = tf.constant(rng.normal(size=(9, 10)).astype("float32"))
q_lab = tf.constant(np.repeat(np.arange(n_way), 3).astype("int32"))
net = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                        layers.Dense(8, name="e")], name="protonet")
opt = keras.optimizers.Adam(1e-3)
with tf.GradientTape() as tape:
    protos = tf.math.unsorted_segment_mean(net(support), s_lab, num_segments=n_way)
    q = net(query)
    d = tf.reduce_sum(tf.square(q[:, None, :] - protos[None, :, :]), axis=-1)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(q_lab, -d))
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmin(d, axis=1, output_type=tf.int32), q_lab), tf.float32))
grads = tape.gradient(loss, net.trainable_weights)
opt.apply_gradients(zip(grads, net.trainable_weights))
print("episode accuracy", float(acc))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
