# source: https://github.com/keras-team/keras/issues/3230
# summary: a subclassed model's train_step minimises binary cross-entropy and updates an AUC metric object (thresholds, assign_add) on the same predictions, after the gradient; fit trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3230)
x = rng.normal(size=(128, 5)).astype("float32")
y = (x[:, :1] - 0.5 * x[:, 2:3] > 0).astype("float32")


class Ranker(tf.keras.Model):
    def __init__(self):
        super().__init__(name="ranker")
        self.hidden = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.score = tf.keras.layers.Dense(1, activation="sigmoid", name="p")
        self.bce = tf.keras.losses.BinaryCrossentropy()
        self.auc = tf.keras.metrics.AUC(name="auc")

    def call(self, inputs):
        return self.score(self.hidden(inputs))

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            probs = self(features, training=True)
            loss = self.bce(labels, probs)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.auc.update_state(labels, probs)
        return {"loss": loss, "auc": self.auc.result()}


model = Ranker()
model(x[:1])
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
