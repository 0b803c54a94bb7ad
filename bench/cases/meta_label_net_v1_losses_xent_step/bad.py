# source: https://github.com/tensorflow/tensorflow/issues/26495
# cause: stop-gradient
# weights: label_net/label_hidden/kernel, label_net/label_hidden/bias, label_net/label_logits/kernel, label_net/label_logits/bias
# mode: function
# summary: a student learns from soft labels that a small label network produces from the same features, both trained on one loss; the soft-label loss is tf.compat.v1.losses.softmax_cross_entropy, whose onehot_labels go through the v1 cross-entropy that wraps its labels in stop_gradient, so the student trains while the label network gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(26495)
features = rng.normal(size=(48, 5)).astype("float32")
classes = rng.integers(0, 3, size=(48,))

student = tf.keras.Sequential([tf.keras.Input((5,)),
                               tf.keras.layers.Dense(8, activation="relu", name="student_hidden"),
                               tf.keras.layers.Dense(3, name="student_logits")], name="student")
label_net = tf.keras.Sequential([tf.keras.Input((5,)),
                                 tf.keras.layers.Dense(6, activation="tanh", name="label_hidden"),
                                 tf.keras.layers.Dense(3, name="label_logits")], name="label_net")
variables = student.trainable_variables + label_net.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(batch, labels):
    with tf.GradientTape() as tape:
        logits = student(batch, training=True)
        soft = 0.5 * tf.one_hot(labels, 3) + 0.5 * tf.nn.softmax(label_net(batch, training=True))
        soft_loss = tf.compat.v1.losses.softmax_cross_entropy(  # expect: stop-gradient primary
            onehot_labels=soft, logits=logits)
    grads = tape.gradient(soft_loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(features, classes)
print("grads are None:", [g is None for g in grads])
