# source: https://dushyantadhyani.github.io/project/kd
# summary: knowledge distillation with fit: a Distiller model's train_step reads soft targets from a teacher frozen with trainable=False (on purpose) and updates only the student; the student's weights all train and the teacher is left as it is
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
x = rng.normal(size=(128, 6)).astype("float32")
y = rng.integers(0, 3, size=128)
teacher = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(16, activation="relu", name="t_hidden"),
                               tf.keras.layers.Dense(3, name="t_logits")], name="teacher")
teacher.trainable = False
student = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(4, activation="relu", name="s_hidden"),
                               tf.keras.layers.Dense(3, name="s_logits")], name="student")


class Distiller(tf.keras.Model):
    def __init__(self, student, teacher):
        super().__init__(name="distiller")
        self.student = student
        self.teacher = teacher
        self.ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        self.kl = tf.keras.losses.KLDivergence()

    def call(self, inputs):
        return self.student(inputs)

    def train_step(self, data):
        features, labels = data
        soft = tf.nn.softmax(self.teacher(features, training=False) / 2.0)
        with tf.GradientTape() as tape:
            logits = self.student(features, training=True)
            loss = 0.5 * self.ce(labels, logits) + 0.5 * self.kl(soft, tf.nn.softmax(logits / 2.0))
        grads = tape.gradient(loss, self.student.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))
        return {"loss": loss}


distiller = Distiller(student, teacher)
distiller.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
before = [w.numpy().copy() for w in student.trainable_weights]
teacher_before = [w.numpy().copy() for w in teacher.weights]
distiller.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, student.trainable_weights, strict=True))
assert all(np.all(b == w.numpy()) for b, w in zip(teacher_before, teacher.weights, strict=True))
