# summary: the temperature is created from a float literal, so it is a float32 variable and gets a gradient
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(138)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 3, size=(32,))
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(16))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="h"),
                                 tf.keras.layers.Dense(3, name="logits")], name="ranker")
    temperature = tf.Variable(2.0, name="temperature")
    optimizer = tf.keras.optimizers.SGD(0.05)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction="sum_over_batch_size")


def replica_step(features, labels):
    params = model.trainable_variables + [temperature]
    with tf.GradientTape() as tape:
        logits = model(features, training=True) / temperature
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params, strict=False))
    return loss


@tf.function
def train_step(features, labels):
    losses = strategy.run(replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)


params = model.trainable_variables + [temperature]
before = [w.numpy().copy() for w in params]
for features, labels in dataset:
    print(float(train_step(features, labels)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, params, strict=False))
