# summary: after unfreezing, the trainer builds a new tf.function (and optimizer), which takes the encoder too
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(35826)
images = rng.normal(size=(32, 5)).astype("float32")
targets = rng.normal(size=(32, 2)).astype("float32")
encoder = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                               tf.keras.layers.Dense(4, activation="tanh", name="enc")],
                              name="encoder")
model = tf.keras.Sequential([encoder, tf.keras.layers.Dense(2, name="out")], name="regressor")


class Trainer:
    def __init__(self, model):
        self.model = model
        self.retrace()

    def retrace(self):
        # Keras 3's optimizer is built for one variable list: a new list needs a new optimizer
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.train_step = tf.function(self._step)

    def _step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
        grads = tape.gradient(loss, self.model.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_weights))
        return loss


trainer = Trainer(model)
encoder.trainable = False
for _ in range(3):
    trainer.train_step(images, targets)
encoder.trainable = True
trainer.retrace()
before = [w.numpy().copy() for w in encoder.weights]
for _ in range(3):
    trainer.train_step(images, targets)
assert all(not np.allclose(a, w.numpy()) for a, w in zip(before, encoder.weights))
