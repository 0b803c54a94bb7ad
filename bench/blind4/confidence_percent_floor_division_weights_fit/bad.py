# source: https://github.com/keras-team/keras/issues/13113
# cause: zero-at-runtime
# weights: annotated/rater_hidden/kernel, annotated/rater_hidden/bias, annotated/rater_score/kernel, annotated/rater_score/bias
# mode: fit
# summary: each training example carries the annotator's confidence as an integer percentage and the script turns it into a sample weight with confidence_pct // 100; integer floor division makes every weight 0, the weighted loss is exactly 0, every gradient is zero and fit never changes a weight
# lint: no (zero at run time: the weights are an ordinary array whose values happen to be all 0)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13113)
features = rng.normal(size=(160, 5)).astype("float32")
rating = (features @ rng.normal(size=(5, 1))).astype("float32")
confidence_pct = rng.integers(40, 100, size=(160,))

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="rater_hidden"),
                          keras.layers.Dense(1, name="rater_score")], name="annotated")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
sample_weight = confidence_pct // 100  # expect: zero-at-runtime primary
before = [w.numpy().copy() for w in model.trainable_weights]
history = model.fit(features, rating, sample_weight=sample_weight, epochs=2, batch_size=32,
                    verbose=0)
print("loss:", history.history["loss"])
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
