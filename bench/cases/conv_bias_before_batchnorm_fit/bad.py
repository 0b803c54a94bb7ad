# source: https://github.com/calmiLovesAI/TensorFlow2.0_ResNet/issues/7
# cause: zero-at-runtime
# rule: TM506
# weights: stem/conv/bias
# mode: fit
# summary: a small residual-style stem trained with fit puts a Conv2D with its default bias right before a BatchNormalization in training mode; the normalisation subtracts each channel's batch mean, so the bias cancels and its gradient is round-off (information: the code trains, the bias is dead weight)
# lint: no (zero by value: only the gradient's size shows the cancellation)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
images = rng.normal(size=(32, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 4, size=(32,))
model = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(6, 3, padding="same", name="conv"),  # expect: zero-at-runtime primary
    keras.layers.BatchNormalization(name="bn"),
    keras.layers.Activation("relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(4, name="logits"),
], name="stem")
model.compile(optimizer=keras.optimizers.SGD(0.05),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(images, labels, epochs=1, batch_size=16, verbose=0)
