# summary: a siamese network on pairs: one shared tower, the Euclidean distance in a Lambda, a BatchNormalization and sigmoid head, the contrastive loss with square(maximum(margin - pred, 0)) for dissimilar pairs, fit
# source: https://keras.io/examples/vision/siamese_contrastive/
import numpy as np
import keras
from keras import layers, ops

keras.utils.set_random_seed(27)
rng = np.random.default_rng(27)
n = 64
a = rng.normal(size=(n, 8)).astype("float32")
same = (rng.uniform(size=n) < 0.5)
b = np.where(same[:, None], a + 0.1 * rng.normal(size=(n, 8)), rng.normal(size=(n, 8))).astype("float32")
labels = same.astype("float32")[:, None]


def euclidean_distance(vects):
    x, y = vects
    sum_square = ops.sum(ops.square(x - y), axis=1, keepdims=True)
    return ops.sqrt(ops.maximum(sum_square, keras.backend.epsilon()))


def contrastive_loss(margin=1.0):
    def loss(y_true, y_pred):
        square_pred = ops.square(y_pred)
        margin_square = ops.square(ops.maximum(margin - y_pred, 0))
        return ops.mean((1 - y_true) * square_pred + y_true * margin_square)
    return loss


tower = keras.Sequential([keras.Input((8,)), layers.Dense(16, activation="tanh", name="t1"),
                          layers.Dense(4, name="t2")], name="tower")
in1, in2 = keras.Input((8,)), keras.Input((8,))
dist = layers.Lambda(euclidean_distance, output_shape=(1,))([tower(in1), tower(in2)])
dist = layers.BatchNormalization(name="bn")(dist)
out = layers.Dense(1, activation="sigmoid", name="head")(dist)
siamese = keras.Model([in1, in2], out)
siamese.compile(loss=contrastive_loss(margin=1.0), optimizer="RMSprop")
before = [w.numpy().copy() for w in siamese.trainable_variables]
siamese.fit([a, b], labels, batch_size=16, epochs=2, verbose=0)
# the tower's last bias cancels in x - y (both towers add it): its gradient is zero by construction
moved = {w.path: not np.allclose(b_, w.numpy()) for b_, w in zip(before, siamese.trainable_variables)}
assert not moved.pop("tower/t2/bias") and all(moved.values()), moved
