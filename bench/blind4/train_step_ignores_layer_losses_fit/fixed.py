# summary: the overridden train_step adds the layers' registered losses (sum(self.losses)) to the compiled loss, so the deep-supervision side head is on the loss path and fit changes every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(541)
x = rng.normal(size=(96, 6)).astype("float32")
y = (x[:, :3].sum(axis=1, keepdims=True) > 0).astype("float32")


class SideOutput(keras.layers.Layer):
    """Adds a supervised side loss on intermediate features and passes them through."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_dense = keras.layers.Dense(1, name="side_dense")

    def call(self, features, targets):
        side = self.side_dense(features)
        self.add_loss(0.3 * keras.ops.mean(keras.losses.binary_crossentropy(
            targets, side, from_logits=True)))
        return features


class DeepSupervised(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.trunk = keras.layers.Dense(8, activation="relu", name="trunk")
        self.side_output = SideOutput(name="side_output")
        self.head = keras.layers.Dense(1, name="head")

    def call(self, inputs, targets=None, training=False):
        h = self.trunk(inputs)
        if targets is not None:
            h = self.side_output(h, targets)
        return self.head(h)

    def train_step(self, data):
        features, targets = data
        with tf.GradientTape() as tape:
            logits = self(features, targets=targets, training=True)
            loss = self.compiled_loss_fn(targets, logits) + tf.add_n(self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = DeepSupervised(name="deep_supervised")
model.compiled_loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model(x[:2], targets=y[:2])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
