# source: https://github.com/microsoft/CNTK/issues/905
# cause: zero-at-runtime
# rule: TM501
# weights: mb1_hidden/kernel, mb1_hidden/bias, mb1_bn/gamma, mb1_bn/beta, mb1_logits/kernel
# mode: fit
# summary: a small classifier with Dense -> BatchNormalization -> ReLU is trained one example at a time (minibatch size 1); the batch mean of one example is the example, the normalised activations are exactly zero, BatchNormalization outputs its zero offset, the ReLU after it is dead, and only the logits' bias learns
# lint: no (the batch size is a value; the same model is right with larger batches)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(905)
x = rng.normal(size=(40, 6)).astype("float32")
labels = (x[:, 0] + x[:, 1] > 0).astype("int32")

inputs = keras.Input((6,))
h = keras.layers.Dense(10, name="mb1_hidden")(inputs)
h = keras.layers.BatchNormalization(name="mb1_bn")(h)  # accept: zero-at-runtime
h = keras.layers.Activation("relu", name="mb1_relu")(h)
logits = keras.layers.Dense(2, name="mb1_logits")(h)
model = keras.Model(inputs, logits, name="mb1_clf")
model.compile(optimizer=keras.optimizers.SGD(0.05),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, labels, epochs=1, batch_size=1, verbose=0)  # expect: zero-at-runtime primary
