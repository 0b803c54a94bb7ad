# summary: softmax cross-entropy on the logits; argmax is only for the accuracy
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(38)
features = rng.normal(size=(32, 5)).astype("float32")
train_labels = tf.one_hot(rng.integers(0, 4, size=32), 4)
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(4, name="lstm_out")], name="tagger")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(x, labels):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, logits))
    accuracy = tf.reduce_mean(tf.cast(tf.argmax(logits, 1) == tf.argmax(labels, 1), tf.float32))
    return tape.gradient(loss, model.trainable_variables), accuracy


grads, accuracy = train_step(features, train_labels)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
