# source: https://github.com/keras-team/keras/issues/17260
# summary: a Keras 3 model weighs two losses in its own train_step by tf.Variables kept on the model (untracked by Keras, trainable by default); a callback sets them each epoch: written by assign, not learned, so nothing is wrong
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(17260)
x = rng.normal(size=(96, 4)).astype("float32")
y_a = (x[:, :1] * 2.0).astype("float32")
y_b = (x[:, 1:2] - x[:, 2:3]).astype("float32")


class TwoHeads(tf.keras.Model):
    def __init__(self):
        super().__init__(name="two_heads")
        self.shared = tf.keras.layers.Dense(8, activation="tanh", name="shared")
        self.head_a = tf.keras.layers.Dense(1, name="head_a")
        self.head_b = tf.keras.layers.Dense(1, name="head_b")
        self.mix = tf.Variable([1.0, 0.0], name="loss_mix")

    def call(self, inputs):
        h = self.shared(inputs)
        return self.head_a(h), self.head_b(h)

    def train_step(self, data):
        features, (target_a, target_b) = data
        with tf.GradientTape() as tape:
            pred_a, pred_b = self(features, training=True)
            loss = (self.mix[0] * tf.reduce_mean(tf.square(pred_a - target_a))
                    + self.mix[1] * tf.reduce_mean(tf.square(pred_b - target_b)))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


class Schedule(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        self.model.mix.assign([1.0 / (epoch + 1), 1.0 - 1.0 / (epoch + 2)])


model = TwoHeads()
model.compile(optimizer=tf.keras.optimizers.Adam(0.05))
model(x[:2])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, (y_a, y_b), epochs=2, batch_size=16, verbose=0, callbacks=[Schedule()])
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables))
