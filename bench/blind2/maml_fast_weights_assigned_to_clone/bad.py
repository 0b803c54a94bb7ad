# source: https://github.com/hereismari/tensorflow-maml/issues/3
# cause: variable-assign
# weights: learner/l_hidden/kernel, learner/l_hidden/bias, learner/l_out/kernel, learner/l_out/bias
# mode: eager
# summary: a MAML inner step writes the adapted weights (w - alpha * g) into a cloned model with assign; the assignment is not recorded on the tape, so the query loss has no path back to the meta-model and the meta-gradients are None
# lint: yes
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
fast = tf.keras.models.clone_model(model)
alpha = 0.05


def mse(m, a, b):
    return tf.reduce_mean(tf.square(m(a, training=True) - b))


with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = mse(model, support_x, support_y)
    inner_grads = inner.gradient(support_loss, model.trainable_variables)
    for fast_w, w, g in zip(fast.trainable_variables, model.trainable_variables, inner_grads):
        fast_w.assign(w - alpha * g)  # expect: variable-assign primary
    query_loss = mse(fast, query_x, query_y)
meta_grads = outer.gradient(query_loss, model.trainable_variables)
print("meta grads None:", [g is None for g in meta_grads])
