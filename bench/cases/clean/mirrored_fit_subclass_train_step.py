# source: https://github.com/tensorflow/tensorflow/issues/36530
# summary: fit under MirroredStrategy.scope() on two logical CPUs with a subclassed model whose train_step has its own tape and a compiled loss
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(36530)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.integers(0, 2, size=(32,))


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__(name="mirror_fit")
        self.h = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.out = tf.keras.layers.Dense(2, name="out")

    def call(self, inputs):
        return self.out(self.h(inputs))

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            logits = self(features, training=True)
            loss = self.compute_loss(x=features, y=labels, y_pred=logits)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


with strategy.scope():
    model = Classifier()
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
