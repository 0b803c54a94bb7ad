# source: https://github.com/keras-team/keras-hub/issues/1656
# cause: sources-mismatch
# weights: intent_model/intent_head/kernel
# mode: fit
# summary: to fine-tune cheaply the script loops over the model's Dense layers and calls enable_lora(2) on each, including the freshly initialised classification head; enable_lora freezes a layer's kernel, so the head keeps its random kernel forever and only its low-rank update and bias learn
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1656)
x = rng.normal(size=(64, 10)).astype("float32")
y = rng.integers(0, 4, size=64)

model = keras.Sequential([keras.Input((10,)),
                          keras.layers.Dense(16, activation="relu", name="encoder"),
                          keras.layers.Dense(4, name="intent_head")], name="intent_model")
for layer in model.layers:
    if isinstance(layer, keras.layers.Dense):
        layer.enable_lora(2)  # expect: sources-mismatch primary
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = {w.path: w.numpy().copy() for w in model.weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.weights})
