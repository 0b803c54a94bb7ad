# source: https://www.tensorflow.org/tutorials/distribute/custom_training
# summary: a MirroredStrategy (two logical CPUs) custom loop: per-example losses with reduction none, a padding sample_weight of zeros, tf.nn.compute_average_loss over the global batch, strategy.run of a tf.function step and strategy.reduce of the losses
import numpy as np
import tensorflow as tf
import keras

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
keras.utils.set_random_seed(0)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL = 8
with strategy.scope():
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu", name="h"),
                              keras.layers.Dense(3, name="out")])
    opt = keras.optimizers.SGD(0.1)
    loss_obj = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
rng = np.random.default_rng(47)
x = rng.normal(size=(16, 5)).astype("float32")
y = rng.integers(0, 3, 16)
w = np.ones(16, "float32")
w[-3:] = 0.0  # padding rows
dist = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y, w)).batch(GLOBAL))
seen = []


@tf.function
def train(batch):
    def replica(features, labels, weights):
        with tf.GradientTape() as tape:
            per_example = loss_obj(labels, model(features, training=True))
            loss = tf.nn.compute_average_loss(per_example, sample_weight=weights,
                                              global_batch_size=GLOBAL)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return strategy.reduce("SUM", strategy.run(replica, args=batch), axis=None)


before = [v.numpy().copy() for v in model.trainable_variables]
for batch in dist:
    train(batch)
assert all(not np.allclose(b, v.numpy()) for b, v in zip(before, model.trainable_variables))
