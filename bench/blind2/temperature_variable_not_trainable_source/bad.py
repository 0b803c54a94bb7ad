# source: https://github.com/tensorflow/tensorflow/issues/23639
# cause: not-watched
# weights: temperature
# mode: eager
# summary: a distillation temperature is created with trainable=False (to keep it out of the model's weight list) and then passed to tape.gradient with the model's weights; the tape does not watch non-trainable variables, so its gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(23639)
x = rng.normal(size=(64, 5)).astype("float32")
teacher_probs = tf.nn.softmax(rng.normal(size=(64, 3)).astype("float32") * 2.0)
student = tf.keras.Sequential([tf.keras.Input((5,)),
                               tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                               tf.keras.layers.Dense(3, name="logits")], name="student")
temperature = tf.Variable(2.0, trainable=False, name="temperature")  # expect: not-watched primary
sources = student.trainable_variables + [temperature]

with tf.GradientTape() as tape:
    logits = student(x, training=True) / temperature
    loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(teacher_probs, logits, from_logits=True))
grads = tape.gradient(loss, sources)
print("temperature grad:", grads[-1])
