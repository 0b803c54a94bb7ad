# source: https://github.com/tensorflow/recommenders/issues/138
# cause: integer-dtype|sources-mismatch
# rule: TM202
# weights: temperature
# mode: function
# summary: a learnable softmax temperature created from an int literal in strategy.scope() is an int32 variable among the step's sources
# lint: no (the integer variable reaches the sources inside a strategy.run replica function that reads it as a global; the checker does not see it as a source there)
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
    temperature = tf.Variable(2, name="temperature")  # expect: integer-dtype|sources-mismatch primary
    optimizer = tf.keras.optimizers.SGD(0.05)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction="sum_over_batch_size")


def replica_step(features, labels):
    params = model.trainable_variables + [temperature]
    with tf.GradientTape() as tape:
        logits = model(features, training=True) / tf.cast(temperature, tf.float32)  # accept: integer-dtype
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, params)  # accept: integer-dtype|sources-mismatch
    optimizer.apply_gradients(zip(grads[:-1], model.trainable_variables, strict=False))
    return loss


@tf.function
def train_step(features, labels):
    losses = strategy.run(replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)


for features, labels in dataset:
    print(float(train_step(features, labels)))
