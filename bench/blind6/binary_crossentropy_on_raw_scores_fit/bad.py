# source: https://github.com/tensorflow/tensorflow/issues/28718
# cause: zero-at-runtime
# weights: risk_model/risk_hidden/kernel, risk_model/risk_hidden/bias, risk_model/risk_score/kernel, risk_model/risk_score/bias
# mode: fit
# summary: a binary classifier ends in Dense(1) with no activation (a logit) but is compiled with loss="binary_crossentropy", whose default from_logits=False clips its input to [eps, 1 - eps]; on unscaled vital-sign inputs every raw score lies outside [0, 1], the clip passes no gradient, and no weight changes
# lint: no (both spellings are valid; only the scores' range makes the clip saturate)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(28718)
x = rng.uniform(60.0, 160.0, size=(64, 4)).astype("float32")
y = (x[:, 0] > 110.0).astype("float32")[:, None]

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="risk_hidden"),
                          keras.layers.Dense(1, name="risk_score")], name="risk_model")
model.compile(optimizer=keras.optimizers.SGD(1e-3), loss="binary_crossentropy")  # expect: zero-at-runtime primary
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
