# source: https://github.com/keras-team/keras/issues/17397
# summary: a MirroredStrategy custom loop on two logical CPUs trains a residual block whose gate starts at zero (ReZero): the branch gets exact zeros on the first step only, and every weight trains
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL_BATCH = 16
rng = np.random.default_rng(17397)
x = rng.normal(size=(96, 6)).astype("float32")
y = rng.normal(size=(96, 6)).astype("float32")
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))


class GatedResidual(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.branch = tf.keras.layers.Dense(input_shape[-1], activation="tanh", name="branch")
        self.gate = self.add_weight(shape=(), initializer="zeros", name="gate")

    def call(self, inputs):
        return inputs + self.gate * self.branch(inputs)


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((6,)), GatedResidual(name="block"),
                                 tf.keras.layers.Dense(6, name="out")], name="rezero")
    optimizer = tf.keras.optimizers.SGD(0.1)
    optimizer.build(model.trainable_variables)
before = [w.numpy().copy() for w in model.trainable_weights]


@tf.function
def train_step(batch):
    def replica_step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.square(model(xb, training=True) - yb), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_step, args=(batch,)),
                           axis=None)


for batch in dataset:
    train_step(batch)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
