# summary: the same MirroredStrategy step handing the optimizer every differentiated variable: backbone and scorer both train
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL_BATCH = 16
rng = np.random.default_rng(37834)
features = rng.normal(size=(96, 5)).astype("float32")
scores = (features @ rng.normal(size=(5, 1))).astype("float32")
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((features, scores)).batch(GLOBAL_BATCH))

with strategy.scope():
    backbone = tf.keras.Sequential([tf.keras.Input((5,)),
                                    tf.keras.layers.Dense(12, activation="tanh", name="trunk")],
                                   name="backbone")
    scorer = tf.keras.Sequential([tf.keras.Input((12,)), tf.keras.layers.Dense(1, name="score")],
                                 name="scorer")
    optimizer = tf.keras.optimizers.Adam(0.01)
    optimizer.build(backbone.trainable_variables + scorer.trainable_variables)


@tf.function
def train_step(batch):
    def replica_step(inputs):
        x, y = inputs
        weights = backbone.trainable_variables + scorer.trainable_variables
        with tf.GradientTape() as tape:
            per_example = tf.square(scorer(backbone(x, training=True)) - y)[:, 0]
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, weights)
        optimizer.apply_gradients(zip(grads, weights))
        return loss

    losses = strategy.run(replica_step, args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for batch in dataset:
    train_step(batch)
