# summary: the same classifier trained on minibatches of 8: the batch statistics average eight examples
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(905)
x = rng.normal(size=(40, 6)).astype("float32")
labels = (x[:, 0] + x[:, 1] > 0).astype("int32")

inputs = keras.Input((6,))
h = keras.layers.Dense(10, name="mb1_hidden")(inputs)
h = keras.layers.BatchNormalization(name="mb1_bn")(h)
h = keras.layers.Activation("relu", name="mb1_relu")(h)
logits = keras.layers.Dense(2, name="mb1_logits")(h)
model = keras.Model(inputs, logits, name="mb1_clf")
model.compile(optimizer=keras.optimizers.SGD(0.05),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, labels, epochs=1, batch_size=8, verbose=0)
