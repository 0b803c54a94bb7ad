# source: https://github.com/PetrochukM/PyTorch-NLP/issues/2
# cause: zero-at-runtime
# weights: attention_score/kernel, attention_score/bias
# mode: fit
# summary: an attention-pooling classifier scores each time step with Dense(1) and normalises the (batch, steps, 1) scores with keras.layers.Softmax(), whose default axis is the last one, of size 1; every attention weight is exactly 1, the pooling is a plain sum, and the scoring layer never changes under fit
# lint: no (Softmax() is valid; the axis is wrong only for this shape)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
x = rng.normal(size=(64, 7, 5)).astype("float32")
y = (x[:, :, 0].max(axis=1) > 1.0).astype("float32")[:, None]

inputs = keras.Input((7, 5))
h = keras.layers.Dense(8, activation="tanh", name="step_projection")(inputs)
scores = keras.layers.Dense(1, name="attention_score")(h)
weights = keras.layers.Softmax()(scores)  # expect: zero-at-runtime primary
pooled = keras.layers.Lambda(lambda t: keras.ops.sum(t[0] * t[1], axis=1), name="weighted_sum")([weights, h])
outputs = keras.layers.Dense(1, activation="sigmoid", name="label_head")(pooled)
model = keras.Model(inputs, outputs, name="attention_pooler")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
