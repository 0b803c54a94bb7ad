# summary: the temperature stays out of the student's weights but is a trainable variable, so the tape watches it and it gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(23639)
x = rng.normal(size=(64, 5)).astype("float32")
teacher_probs = tf.nn.softmax(rng.normal(size=(64, 3)).astype("float32") * 2.0)
student = tf.keras.Sequential([tf.keras.Input((5,)),
                               tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                               tf.keras.layers.Dense(3, name="logits")], name="student")
temperature = tf.Variable(2.0, name="temperature")
sources = student.trainable_variables + [temperature]

with tf.GradientTape() as tape:
    logits = student(x, training=True) / temperature
    loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(teacher_probs, logits, from_logits=True))
grads = tape.gradient(loss, sources)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
