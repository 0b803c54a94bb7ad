# summary: LoRA is enabled on the (pretrained) encoder only; the new head is trained in full, so its kernel and bias change along with the encoder's low-rank factors
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1656)
x = rng.normal(size=(64, 10)).astype("float32")
y = rng.integers(0, 4, size=64)

model = keras.Sequential([keras.Input((10,)),
                          keras.layers.Dense(16, activation="relu", name="encoder"),
                          keras.layers.Dense(4, name="intent_head")], name="intent_model")
model.get_layer("encoder").enable_lora(2)
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 5 and all(changed.values()), changed
assert "intent_model/intent_head/kernel" in changed
