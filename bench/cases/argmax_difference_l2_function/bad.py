# source: https://github.com/tensorflow/tensorflow/issues/1511
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: tagger/lstm_out/kernel, tagger/lstm_out/bias
# mode: function
# summary: an L2 loss on the difference of argmax(logits) and argmax(labels)
# lint: yes
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
        guess = tf.argmax(logits, 1)  # expect: non-differentiable-op|integer-dtype primary
        pred_diff = tf.cast(guess - tf.argmax(labels, 1), tf.float32)
        loss = tf.nn.l2_loss(pred_diff)
    return tape.gradient(loss, model.trainable_variables)


print(train_step(features, train_labels))
