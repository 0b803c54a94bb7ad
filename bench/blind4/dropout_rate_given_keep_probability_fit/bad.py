# source: https://github.com/wsjeon92/FP2VEC/issues/2
# cause: not-connected|zero-at-runtime
# weights: fingerprint/fp_conv/kernel, fingerprint/fp_conv/bias
# mode: fit
# summary: a model ported from TF1 keeps its keep_prob setting (1.0, "keep everything") and passes it as the Keras Dropout rate; rate 1.0 drops every unit, so the layers after the dropout train on zeros while the convolution before it gets no gradient ("Gradients do not exist") and never changes
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
fingerprints = rng.normal(size=(96, 20, 4)).astype("float32")
activity = (fingerprints[:, :5, 0].mean(axis=1, keepdims=True) > 0).astype("float32")
keep_prob = 1.0

model = keras.Sequential([
    keras.Input((20, 4)),
    keras.layers.Conv1D(8, 3, activation="relu", name="fp_conv"),
    keras.layers.GlobalMaxPooling1D(),
    keras.layers.Dropout(keep_prob, name="fp_dropout"),  # expect: not-connected|zero-at-runtime primary
    keras.layers.Dense(1, activation="sigmoid", name="fp_out"),
], name="fingerprint")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
conv = model.get_layer("fp_conv")
before = [w.numpy().copy() for w in conv.trainable_weights]
model.fit(fingerprints, activity, epochs=2, batch_size=32, verbose=0)
print("conv changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, conv.trainable_weights)])
