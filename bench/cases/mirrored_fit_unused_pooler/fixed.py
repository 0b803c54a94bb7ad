# summary: the classifier reads the pooled output, so the pooler trains
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(37501)
x = rng.normal(size=(32, 8)).astype("float32")
y = rng.integers(0, 2, size=(32,))


class TinyEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__(name="tiny_encoder")
        self.encoder = tf.keras.layers.Dense(8, activation="gelu", name="encoder")
        self.pooler = tf.keras.layers.Dense(8, activation="tanh", name="pooler")
        self.classifier = tf.keras.layers.Dense(2, name="classifier")

    def call(self, inputs):
        hidden = self.encoder(inputs)
        pooled = self.pooler(hidden)
        return self.classifier(pooled)


with strategy.scope():
    model = TinyEncoder()
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
