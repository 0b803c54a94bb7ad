# summary: knowledge distillation: a Distiller model whose train_step runs a pre-trained teacher (trainable=False) outside the tape and trains the student on a temperature-softened KL plus the hard-label loss, fit
# source: https://keras.io/examples/vision/knowledge_distillation/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(10)
rng = np.random.default_rng(10)
x = rng.normal(size=(48, 8)).astype("float32")
y = rng.integers(0, 4, size=(48,))
teacher = keras.Sequential([keras.Input((8,)), layers.Dense(32, activation="relu"),
                            layers.Dense(4)], name="teacher")
teacher.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
teacher.fit(x, y, epochs=1, verbose=0)
teacher.trainable = False
student = keras.Sequential([keras.Input((8,)), layers.Dense(8, activation="relu"),
                            layers.Dense(4)], name="student")


class Distiller(keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.student, self.teacher = student, teacher

    def compile(self, optimizer, student_loss_fn, distill_loss_fn, alpha=0.1, temperature=3.0):
        super().compile(optimizer=optimizer)
        self.s_loss, self.d_loss = student_loss_fn, distill_loss_fn
        self.alpha, self.temperature = alpha, temperature

    def train_step(self, data):
        xb, yb = data
        teacher_pred = self.teacher(xb, training=False)
        with tf.GradientTape() as tape:
            student_pred = self.student(xb, training=True)
            hard = self.s_loss(yb, student_pred)
            soft = self.d_loss(tf.nn.softmax(teacher_pred / self.temperature, axis=1),
                               tf.nn.softmax(student_pred / self.temperature, axis=1))
            loss = self.alpha * hard + (1 - self.alpha) * soft * self.temperature ** 2
        weights = self.student.trainable_variables
        grads = tape.gradient(loss, weights)
        self.optimizer.apply_gradients(zip(grads, weights))
        return {"loss": loss}


d = Distiller(student, teacher)
d.compile(keras.optimizers.Adam(), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
          keras.losses.KLDivergence())
before = [w.numpy().copy() for w in student.trainable_weights]
t_before = [w.numpy().copy() for w in teacher.weights]
d.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, student.trainable_weights))
assert all(np.allclose(b, w.numpy()) for b, w in zip(t_before, teacher.weights))
