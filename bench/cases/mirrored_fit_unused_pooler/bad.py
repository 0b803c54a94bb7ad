# source: https://github.com/tensorflow/tensorflow/issues/37501
# cause: not-connected
# rule: TM104
# weights: tiny_encoder/pooler/kernel, tiny_encoder/pooler/bias
# mode: fit
# summary: fit under MirroredStrategy on an encoder whose pooler output is computed but never reaches the classifier
# lint: no (not-connected: nothing cuts the pooler, its output is unused)
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
        self.pooler = tf.keras.layers.Dense(8, activation="tanh", name="pooler")  # accept: not-connected
        self.classifier = tf.keras.layers.Dense(2, name="classifier")

    def call(self, inputs):
        hidden = self.encoder(inputs)
        pooled = self.pooler(hidden)  # accept: not-connected
        return self.classifier(hidden)  # expect: not-connected primary


with strategy.scope():
    model = TinyEncoder()
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
