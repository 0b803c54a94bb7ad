# source: https://github.com/bayesflow-org/bayesflow/issues/541
# cause: not-connected
# weights: deep_supervised/side_output/side_dense/kernel, deep_supervised/side_output/side_dense/bias
# mode: fit
# summary: a deep-supervision layer scores the hidden features with its own side Dense and registers that auxiliary loss with self.add_loss; the model overrides train_step and builds its loss from the compiled loss alone, never adding self.losses, so in fit the side head gets no gradient ("Gradients do not exist") and never changes
# lint: yes
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
            loss = self.compiled_loss_fn(targets, logits)  # expect: not-connected primary
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = DeepSupervised(name="deep_supervised")
model.compiled_loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model(x[:2], targets=y[:2])
side = model.side_output.side_dense
before = [w.numpy().copy() for w in side.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print("side head changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, side.trainable_weights)])
