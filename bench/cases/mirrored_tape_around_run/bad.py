# source: https://github.com/tensorflow/tensorflow/issues/36392
# cause: outside-tape
# rule: TM103
# weights: mirror_seq/enc/kernel, mirror_seq/enc/bias, mirror_seq/dec/kernel, mirror_seq/dec/bias
# mode: function
# summary: the GradientTape is opened in the cross-replica context around strategy.run, so it records none of the replica's ops
# lint: no (the tape looks like it encloses the forward pass)
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(36)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.normal(size=(32, 2)).astype("float32")
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(16))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                                 tf.keras.layers.Dense(6, activation="relu", name="enc"),
                                 tf.keras.layers.Dense(2, name="dec")], name="mirror_seq")
    optimizer = tf.keras.optimizers.SGD(0.1)


def forward(features, labels):
    pred = model(features, training=True)
    return tf.reduce_mean(tf.square(pred - labels))


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:  # expect: outside-tape primary
        per_replica = strategy.run(forward, args=(features, labels))
        loss = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


for features, labels in dataset:
    loss, grads = train_step(features, labels)
    print(float(loss), grads)
