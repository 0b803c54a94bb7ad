# source: https://github.com/tensorflow/tensorflow/issues/35826
# cause: sources-mismatch
# rule: TM113
# weights: encoder/enc/kernel, encoder/enc/bias
# mode: function
# summary: a custom @tf.function step traced while the encoder was frozen is reused after unfreezing it
# lint: no (the step reads model.trainable_weights, which is right when it is traced; only the later call is stale)
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
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
        grads = tape.gradient(loss, self.model.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_weights))
        return loss


trainer = Trainer(model)
encoder.trainable = False
for _ in range(3):
    trainer.train_step(images, targets)
encoder.trainable = True  # expect: sources-mismatch primary
for _ in range(3):
    trainer.train_step(images, targets)
