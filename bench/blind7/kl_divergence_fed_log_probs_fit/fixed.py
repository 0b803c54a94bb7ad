# summary: the student ends in a softmax, so KLDivergence receives probabilities as it expects, and every weight changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
x = rng.normal(size=(64, 6)).astype("float32")
teacher_logits = x @ rng.normal(size=(6, 4))
soft_targets = (np.exp(teacher_logits) / np.exp(teacher_logits).sum(axis=1, keepdims=True)).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="relu", name="student_hidden"),
                          keras.layers.Dense(4, activation="softmax", name="student_logits")], name="student")
model.compile(optimizer="adam", loss=keras.losses.KLDivergence())
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, soft_targets, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
