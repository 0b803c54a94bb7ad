# summary: the loss is told its input is a logit (BinaryCrossentropy(from_logits=True)), so there is no clip and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(28718)
x = rng.uniform(60.0, 160.0, size=(64, 4)).astype("float32")
y = (x[:, 0] > 110.0).astype("float32")[:, None]

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="risk_hidden"),
                          keras.layers.Dense(1, name="risk_score")], name="risk_model")
model.compile(optimizer=keras.optimizers.SGD(1e-3), loss=keras.losses.BinaryCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and all(changed.values()), changed
