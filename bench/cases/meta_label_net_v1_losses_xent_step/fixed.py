# summary: the soft-label loss is tf.nn.softmax_cross_entropy_with_logits (v2), which differentiates its labels too, so the label network trains with the student
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
        soft_loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
            labels=soft, logits=logits))
    grads = tape.gradient(soft_loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(features, classes)
assert len(grads) == len(variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
