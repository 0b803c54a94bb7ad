# summary: a distillation step in eager mode runs the frozen teacher inside tape.stop_recording() (not among the sources) and the student on the tape: nothing to report
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)
rng = np.random.default_rng(1431)
x = rng.normal(size=(32, 6)).astype("float32")

teacher = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(4, name="t_out")],
                              name="teacher")
student = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(8, activation="tanh", name="s_hidden"),
                               tf.keras.layers.Dense(4, name="s_out")], name="student")

with tf.GradientTape() as tape:
    with tape.stop_recording():
        soft_targets = tf.nn.softmax(teacher(x) / 2.0)
    student_logits = student(x, training=True)
    loss = tf.reduce_mean(
        tf.keras.losses.categorical_crossentropy(soft_targets, student_logits / 2.0,
                                                 from_logits=True))
grads = tape.gradient(loss, student.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok", float(loss))
