# summary: a pairwise logistic surrogate of AUC on the scores is optimised; the AUC metric is only reported
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1732)
x = tf.constant(rng.normal(size=(64, 5)).astype("float32"))
y = tf.constant((x.numpy()[:, :1] + 0.3 * x.numpy()[:, 1:2] > 0).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                            name="ranker")
auc = tf.keras.metrics.AUC(num_thresholds=50)
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        scores = model(features, training=True)
        pairs = labels - tf.transpose(labels)
        margins = scores - tf.transpose(scores)
        loss = tf.reduce_sum(tf.nn.relu(pairs) * tf.nn.softplus(-margins)) / tf.reduce_sum(
            tf.nn.relu(pairs))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    auc.update_state(labels, scores)
    return grads


grads = train_step(x, y)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
