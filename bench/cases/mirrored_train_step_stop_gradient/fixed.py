# summary: the residual is squared as it is; only the target would ever need tf.stop_gradient
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(14104)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


class MirrorRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__(name="mirror_sub")
        self.h = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.out = tf.keras.layers.Dense(1, name="out")

    def call(self, inputs):
        return self.out(self.h(inputs))

    def train_step(self, data):
        features, target = data
        with tf.GradientTape() as tape:
            pred = self(features, training=True)
            residual = pred - tf.stop_gradient(target)
            loss = tf.reduce_mean(tf.square(residual))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


with strategy.scope():
    model = MirrorRegressor()
    model.compile(optimizer="sgd")
    model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
