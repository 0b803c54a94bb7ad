# source: https://github.com/facebookresearch/dlrm/pull/358
# cause: zero-at-runtime
# weights: ctr/bottom_mlp/kernel, ctr/bottom_mlp/bias, ctr/top_mlp/kernel
# mode: fit
# summary: a click-through model trained with fit under MirroredStrategy initialises its bottom MLP's bias to a large negative constant; every ReLU pre-activation is negative, the bottom layer outputs zeros and gets zero gradients, the top kernel reads only zeros, and only the top bias ever moves
# lint: no (zero at run time: only the initial values show that every ReLU is off)
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(358)
dense_features = rng.uniform(0.0, 1.0, size=(128, 6)).astype("float32")
clicked = (dense_features[:, 0] > 0.6).astype("float32")[:, None]

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input((6,)),
        tf.keras.layers.Dense(8, activation="relu", name="bottom_mlp",
                              bias_initializer=tf.keras.initializers.Constant(-10.0)),  # expect: zero-at-runtime primary
        tf.keras.layers.Dense(1, name="top_mlp"),
    ], name="ctr")
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(dense_features, clicked, epochs=2, batch_size=32, verbose=0)
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
