# source: https://github.com/keras-team/keras/issues/14104
# cause: stop-gradient
# rule: TM203
# weights: mirror_sub/h/kernel, mirror_sub/h/bias, mirror_sub/out/kernel, mirror_sub/out/bias
# mode: fit
# summary: a custom train_step run by fit under MirroredStrategy wraps the residual in tf.stop_gradient before squaring it
# lint: yes
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
            residual = tf.stop_gradient(pred - target)  # expect: stop-gradient primary
            loss = tf.reduce_mean(tf.square(residual))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


with strategy.scope():
    model = MirrorRegressor()
    model.compile(optimizer="sgd")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
