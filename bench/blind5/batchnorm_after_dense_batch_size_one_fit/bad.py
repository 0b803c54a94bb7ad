# source: https://github.com/chainer/chainer/pull/3996
# cause: zero-at-runtime
# weights: bn_reg/bn_dense/kernel, bn_reg/bn_dense/bias, bn_reg/bn_norm/gamma, bn_reg/bn_norm/beta, bn_reg/bn_out/kernel
# mode: fit
# summary: a tabular regressor with Dense -> BatchNormalization is trained with batch_size=1 (to mimic per-sample SGD); over a batch of one the batch mean equals the sample, so the normalised activations are exactly 0, BN outputs its zero-initialised beta, the ReLU after it passes nothing, and every weight but the head's bias gets exactly zero gradients and never changes
# lint: no (the batch size is a value; BatchNormalization is correct with larger batches)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(3996)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, name="bn_dense"),
                          keras.layers.BatchNormalization(name="bn_norm"),  # accept: zero-at-runtime
                          keras.layers.ReLU(name="bn_relu"),
                          keras.layers.Dense(1, name="bn_out")], name="bn_reg")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=1, verbose=0)  # expect: zero-at-runtime primary
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
