# summary: the replica step's loss is written with TensorFlow ops, so the tape sees it
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


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        pred = model(features, training=True)
        loss = tf.reduce_mean(tf.square(pred - labels))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


@tf.function
def train_step(batch):
    losses = strategy.run(replica_step, args=batch)
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)


before = [w.numpy().copy() for w in model.trainable_weights]
for batch in dataset:
    print(float(train_step(batch)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
