# source: https://github.com/tensorflow/tensorflow/issues/48361
# cause: zero-at-runtime
# rule: TM501
# weights: embedder/body/kernel, embedder/body/bias, embedder/proj/kernel, embedder/proj/bias
# mode: function
# summary: a tf.function step under MirroredStrategy (two logical CPUs) runs a replica function whose ReLU projection starts with a bias so negative that no unit is ever on: the embedding is always 0 and the embedder's weights get exact zeros
# lint: no (zero at run time: only the run shows that no unit is on)
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL_BATCH = 16
rng = np.random.default_rng(48361)
anchors = rng.normal(size=(64, 10)).astype("float32")
targets = rng.normal(size=(64, 4)).astype("float32")
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((anchors, targets)).batch(GLOBAL_BATCH))

with strategy.scope():
    embedder = tf.keras.Sequential([
        tf.keras.Input((10,)),
        tf.keras.layers.Dense(16, activation="tanh", name="body"),
        tf.keras.layers.Dense(4, activation="relu", name="proj",  # accept: zero-at-runtime
                              bias_initializer=tf.keras.initializers.Constant(-40.0)),  # expect: zero-at-runtime primary
    ], name="embedder")
    optimizer = tf.keras.optimizers.SGD(0.05)
    optimizer.build(embedder.trainable_variables)


@tf.function
def train_step(batch):
    def replica_step(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            per_example = tf.reduce_sum(tf.square(embedder(x, training=True) - y), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, embedder.trainable_variables)
        optimizer.apply_gradients(zip(grads, embedder.trainable_variables))
        return loss

    losses = strategy.run(replica_step, args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for batch in dataset:
    train_step(batch)
