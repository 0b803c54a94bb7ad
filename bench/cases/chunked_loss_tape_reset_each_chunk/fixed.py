# summary: the loss is accumulated over the chunks on one tape, with no reset between them; the gradient of the total reaches every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21584)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x[:, :1] - x[:, 1:2]).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(6, activation="tanh", name="chunk_hidden"),
                             tf.keras.layers.Dense(1, name="chunk_out")], name="chunker")
optimizer = tf.keras.optimizers.SGD(0.05)

for epoch in range(2):
    with tf.GradientTape() as tape:
        total = tf.constant(0.0)
        for start in range(0, 48, 16):
            pred = model(x[start:start + 16], training=True)
            total += tf.reduce_mean(tf.square(pred - y[start:start + 16]))
    grads = tape.gradient(total, model.trainable_variables)
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("ok", float(total))
