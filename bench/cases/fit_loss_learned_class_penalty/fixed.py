# summary: the penalty is a weight of a layer in the model, and the loss term that uses it is added with add_loss, so fit trains it with the rest
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(13844)
x = rng.normal(size=(120, 4)).astype("float32")
y = tf.keras.utils.to_categorical((x[:, 0] > 0).astype("int32") + (x[:, 1] > 1).astype("int32"), 3)


class PenalisedModel(tf.keras.Model):
    def __init__(self):
        super().__init__(name="classifier")
        self.hidden = tf.keras.layers.Dense(8, activation="relu", name="hidden")
        self.probs = tf.keras.layers.Dense(3, activation="softmax", name="probs")
        self.penalty = self.add_weight(shape=(3,), initializer="ones", name="class_penalty")

    def call(self, inputs):
        return self.probs(self.hidden(inputs))

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        weights = tf.nn.softplus(self.penalty)
        picked = -tf.reduce_sum(y * weights * tf.math.log(y_pred + 1e-7), axis=-1)
        return tf.reduce_mean(picked) + 0.1 * tf.reduce_sum(tf.square(self.penalty))


model = PenalisedModel()
model.compile(optimizer=tf.keras.optimizers.Adam(0.05))
model(x[:2])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=2, batch_size=24, verbose=0)
assert len(model.trainable_variables) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables))
