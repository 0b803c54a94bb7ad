# summary: the temperature is a weight of the model (add_weight in a subclassed Model whose compute_loss reads it), so fit differentiates it with the classifier and every weight changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12983)
x = rng.normal(size=(96, 4)).astype("float32")
y = rng.integers(0, 3, size=(96,))


class TemperedClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__(name="classifier")
        self.logits = tf.keras.layers.Dense(3, name="logits")
        self.temperature = self.add_weight(shape=(), initializer="ones",
                                           name="logit_temperature")

    def call(self, inputs):
        return self.logits(inputs)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        return tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            y, y_pred / self.temperature, from_logits=True))


model = TemperedClassifier()
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2))
model(x[:2])
weights = model.trainable_weights
before = [w.numpy().copy() for w in weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(weights) == 3
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
