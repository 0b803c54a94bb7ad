# summary: the adapted weights stay tensors and the query pass runs the same layers functionally on them, so the meta-gradients flow back through the inner step
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
support_x = rng.uniform(-3, 3, size=(10, 1)).astype("float32")
support_y = np.sin(support_x + 0.5).astype("float32")
query_x = rng.uniform(-3, 3, size=(10, 1)).astype("float32")
query_y = np.sin(query_x + 0.5).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((1,)),
                             tf.keras.layers.Dense(16, activation="tanh", name="l_hidden"),
                             tf.keras.layers.Dense(1, name="l_out")], name="learner")
alpha = 0.05


def forward(weights, a):
    w1, b1, w2, b2 = weights
    return tf.tanh(a @ w1 + b1) @ w2 + b2


with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = tf.reduce_mean(tf.square(model(support_x, training=True) - support_y))
    inner_grads = inner.gradient(support_loss, model.trainable_variables)
    adapted = [w.value - alpha * g for w, g in zip(model.trainable_variables, inner_grads)]
    query_loss = tf.reduce_mean(tf.square(forward(adapted, query_x) - query_y))
meta_grads = outer.gradient(query_loss, model.trainable_variables)
assert len(meta_grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in meta_grads)
