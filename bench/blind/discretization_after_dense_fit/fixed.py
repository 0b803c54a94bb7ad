# summary: the projection feeds a soft bucketing (softmax over distances to the bin centres), which is differentiable
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(20981)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")
centres = tf.constant([-0.75, -0.25, 0.25, 0.75])
model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(2, name="proj"),
    tf.keras.layers.Lambda(lambda t: tf.nn.softmax(-tf.square(t[..., None] - centres) / 0.1),
                           name="soft_bucket"),
    tf.keras.layers.Flatten(name="flat"),
    tf.keras.layers.Dense(1, activation="sigmoid", name="out"),
], name="bucketed")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
