# summary: QLoRA shape: the model is quantized to int8 and LoRA is enabled on every quantized Dense layer before fit; the int8 kernels stay fixed by design while the low-rank factors and biases train
# source: https://keras.io/examples/keras_recipes/parameter_efficient_finetuning_of_gemma_with_lora_and_qlora/
import keras
import numpy as np

keras.utils.set_random_seed(9)

rng = np.random.default_rng(77)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)

tuned = keras.Sequential([keras.Input((6,)), keras.layers.Dense(12, activation="tanh", name="a"),
                          keras.layers.Dense(3, name="b")], name="qlora_net")
tuned.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
tuned.fit(x, y, epochs=1, batch_size=16, verbose=0)
tuned.quantize("int8")
for layer in tuned.layers:
    layer.enable_lora(2)
tuned.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
tuned.fit(x, y, epochs=2, batch_size=16, verbose=0)
