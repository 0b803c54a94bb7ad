# summary: distillation written eagerly with the frozen teacher's soft targets from teacher.predict(x, verbose=0) inside the student's tape (the teacher is not a source), eager
# source: https://keras.io/examples/keras_recipes/better_knowledge_distillation/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(69)
rng = np.random.default_rng(69)
x = rng.normal(size=(16, 6)).astype("float32")
teacher = keras.Sequential([keras.Input((6,)), layers.Dense(16, activation="relu"), layers.Dense(4)], name="teacher")
student = keras.Sequential([keras.Input((6,)), layers.Dense(4, name="s")], name="student")
opt = keras.optimizers.Adam(1e-3)
with tf.GradientTape() as tape:
    soft = tf.nn.softmax(teacher.predict(x, verbose=0) / 2.0)
    log_p = tf.nn.log_softmax(student(x) / 2.0)
    loss = -tf.reduce_mean(tf.reduce_sum(soft * log_p, axis=-1))
grads = tape.gradient(loss, student.trainable_weights)
opt.apply_gradients(zip(grads, student.trainable_weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
