# source: https://github.com/tensorflow/tensorflow/issues/61484
# cause: non-differentiable-op
# rule: -
# weights: perceptron/step_hidden/kernel, perceptron/step_hidden/bias
# mode: fit
# summary: a two-layer perceptron uses the Heaviside step as its hidden activation through a Lambda around keras.ops.heaviside; the step's output is a selection between constants, so the hidden layer gets no gradient ("Gradients do not exist") and never changes under fit while the output layer trains on the binary features
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(61484)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] * x[:, 1:2] > 0).astype("float32")

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, name="step_hidden"),
                          keras.layers.Lambda(lambda z: keras.ops.heaviside(z, 0.5), name="step"),  # expect: non-differentiable-op primary
                          keras.layers.Dense(1, activation="sigmoid", name="step_out")], name="perceptron")
model.compile(optimizer="adam", loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
