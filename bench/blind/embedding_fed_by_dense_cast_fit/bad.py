# source: https://github.com/keras-team/tf-keras/issues/826
# cause: integer-dtype|non-differentiable-op
# weights: bucket_logits/kernel, bucket_logits/bias
# mode: fit
# summary: a Dense branch is rescaled, cast to int32 indices and looked up in an Embedding inside a functional model trained by fit; the cast carries no gradient, so the Dense layer before it never trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(826)
x = rng.normal(size=(128, 5)).astype("float32")
y = (x[:, :2].sum(axis=1, keepdims=True) ** 2).astype("float32")
inputs = tf.keras.Input((5,))
branch = tf.keras.layers.Dense(3, activation="tanh", name="bucket_logits")(inputs)
branch = tf.keras.layers.Rescaling(4.5, offset=4.5, name="to_range")(branch)
indices = tf.keras.layers.Lambda(lambda t: tf.cast(t, tf.int32), name="to_index")(branch)  # expect: integer-dtype|non-differentiable-op primary
embedded = tf.keras.layers.Embedding(10, 4, name="embedding")(indices)
embedded = tf.keras.layers.Flatten()(embedded)
direct = tf.keras.layers.Dense(8, activation="relu", name="direct")(inputs)
merged = tf.keras.layers.Concatenate()([direct, embedded])
outputs = tf.keras.layers.Dense(1, name="out")(merged)
model = tf.keras.Model(inputs, outputs, name="hybrid")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
