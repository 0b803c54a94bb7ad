# source: https://github.com/keras-team/keras/issues/8993
# cause: integer-dtype|non-differentiable-op
# weights: ticket_clf/tk_hidden/kernel, ticket_clf/tk_hidden/bias, ticket_clf/tk_out/kernel, ticket_clf/tk_out/bias
# mode: fit
# summary: a custom class-weighted cross-entropy is written in PyTorch's argument order, loss(pred, target), but Keras calls it as loss(y_true, y_pred); inside, "target" (really the predictions) is cast to int32 to build the one-hot labels, so the loss no longer depends on the model through anything differentiable and fit raises "No gradients provided for any variable"
# lint: no (parameter names carry no meaning to Keras: the order is only known by convention)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(8993)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=(64, 1)).astype("float32")
class_weight = keras.ops.convert_to_tensor([1.0, 2.0, 4.0])


def weighted_xent(pred, target):  # accept: integer-dtype|non-differentiable-op
    onehot = keras.ops.one_hot(keras.ops.cast(target[:, 0], "int32"), 3)  # expect: integer-dtype|non-differentiable-op primary
    probs = keras.ops.clip(pred, 1e-6, 1.0)
    return -keras.ops.sum(onehot * class_weight * keras.ops.log(probs), axis=-1)


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(10, activation="relu", name="tk_hidden"),
                          keras.layers.Dense(3, activation="softmax", name="tk_out")], name="ticket_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=weighted_xent)
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
