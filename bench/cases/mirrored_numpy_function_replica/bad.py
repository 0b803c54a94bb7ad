# source: https://github.com/tensorflow/tensorflow/issues/35226
# cause: numpy-function|host-round-trip
# rule: TM105
# weights: mirror_reg/h/kernel, mirror_reg/h/bias, mirror_reg/o/kernel, mirror_reg/o/bias
# mode: function
# summary: a MirroredStrategy replica step computes its loss in NumPy through tf.numpy_function
# lint: yes
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(21)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(16))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                 tf.keras.layers.Dense(8, activation="tanh", name="h"),
                                 tf.keras.layers.Dense(1, name="o")], name="mirror_reg")
    optimizer = tf.keras.optimizers.SGD(0.05)


def numpy_mse(pred, target):
    return np.mean((pred - target) ** 2).astype("float32")


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        pred = model(features, training=True)
        loss = tf.numpy_function(numpy_mse, [pred, labels], tf.float32)  # expect: numpy-function|host-round-trip primary
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


@tf.function
def train_step(batch):
    losses = strategy.run(replica_step, args=batch)
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)


for batch in dataset:
    print(float(train_step(batch)))
