# source: https://github.com/tensorflow/tensorflow/issues/27949
# cause: outside-tape
# rule: TM103
# weights: mirror_cnn/flat/kernel, mirror_cnn/flat/bias, mirror_cnn/cls/kernel, mirror_cnn/cls/bias
# mode: function
# summary: in the replica function of a MirroredStrategy loop the loss is computed after the tape's with block
# lint: yes
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(27949)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 4, size=(32,))
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(16))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="flat"),
                                 tf.keras.layers.Dense(4, activation="softmax", name="cls")],
                                name="mirror_cnn")
    optimizer = tf.keras.optimizers.SGD(0.1)


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        probs = model(features, training=True)
    onehot = tf.one_hot(labels, 4)
    loss = tf.reduce_mean(tf.math.square(onehot - probs))  # expect: outside-tape primary
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


@tf.function
def train_step(features, labels):
    losses = strategy.run(replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)


for features, labels in dataset:
    print(float(train_step(features, labels)))
