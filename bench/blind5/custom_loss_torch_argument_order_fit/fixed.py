# summary: the loss takes (y_true, y_pred) as Keras passes them, so the labels are cast and the predictions stay differentiable; every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(8993)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=(64, 1)).astype("float32")
class_weight = keras.ops.convert_to_tensor([1.0, 2.0, 4.0])


def weighted_xent(target, pred):
    onehot = keras.ops.one_hot(keras.ops.cast(target[:, 0], "int32"), 3)
    probs = keras.ops.clip(pred, 1e-6, 1.0)
    return -keras.ops.sum(onehot * class_weight * keras.ops.log(probs), axis=-1)


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(10, activation="relu", name="tk_hidden"),
                          keras.layers.Dense(3, activation="softmax", name="tk_out")], name="ticket_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=weighted_xent)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
