# source: https://github.com/tensorflow/tensorflow/issues/72686
# summary: a MirroredStrategy custom loop on two logical CPUs: per-example loss scaled by the global batch, strategy.run in a tf.function
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL_BATCH = 16
rng = np.random.default_rng(72686)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 3, size=(32,))
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="h"),
                                 tf.keras.layers.Dropout(0.1),
                                 tf.keras.layers.Dense(3, name="logits")], name="fashion")
    optimizer = tf.keras.optimizers.SGD(0.1)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()


def compute_loss(labels, logits):
    per_example = loss_object(labels, logits)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = compute_loss(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    accuracy.update_state(labels, logits)
    return loss


@tf.function
def distributed_step(features, labels):
    per_replica = strategy.run(replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


before = [w.numpy().copy() for w in model.trainable_weights]
for features, labels in dataset:
    print(float(distributed_step(features, labels)))
print(float(accuracy.result()))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
