# source: https://github.com/tensorflow/tensorflow/issues/30234
# cause: variable-assign
# rule: TM402
# weights: inner_lr
# mode: eager
# summary: Meta-SGD: the inner step assigns w - lr * g into the variables, so lr gets no gradient
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22)
x_support, y_support = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1))
x_query, y_query = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1))
learner = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="d")],
                              name="learner")
inner_lr = tf.Variable(0.1, name="inner_lr")

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = tf.reduce_mean((learner(x_support) - y_support) ** 2)
    inner_grads = inner.gradient(support_loss, learner.trainable_variables)
    for v, g in zip(learner.trainable_variables, inner_grads, strict=False):
        v.assign(v - inner_lr * g)  # expect: variable-assign primary
    query_loss = tf.reduce_mean((learner(x_query) - y_query) ** 2)
print(outer.gradient(query_loss, inner_lr))
