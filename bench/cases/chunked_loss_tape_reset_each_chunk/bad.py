# source: https://github.com/tensorflow/tensorflow/issues/21584
# cause: outside-tape
# weights: chunker/chunk_hidden/kernel, chunker/chunk_hidden/bias, chunker/chunk_out/kernel, chunker/chunk_out/bias
# mode: eager
# summary: worried that a tape open over a loop of chunks keeps every chunk's activations, the user calls tape.reset() at the end of each chunk to free memory while adding that chunk's loss into the total; each reset discards what the tape recorded, so the gradient of the total reaches no weight
# lint: no (visible in the source, but the static checker does not yet model what tape.reset() discards)
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
            tape.reset()  # expect: outside-tape primary
    grads = tape.gradient(total, model.trainable_variables)
    print("epoch", epoch, "grads are None:", [g is None for g in grads])
    optimizer.apply_gradients(
        (g, v) for g, v in zip(grads, model.trainable_variables) if g is not None)
