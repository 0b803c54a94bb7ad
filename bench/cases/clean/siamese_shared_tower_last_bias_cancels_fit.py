# summary: keras-io siamese network: a shared tower, a Lambda euclidean distance with ops.maximum(sum, epsilon) under the sqrt, contrastive loss; the tower's last bias cancels in the difference, so its gradient is exactly zero
# source: https://keras.io/examples/vision/siamese_contrastive/
import numpy as np
import keras
from keras import layers, ops

keras.utils.set_random_seed(26)
rng = np.random.default_rng(26)
N = 40
a = rng.normal(size=(N, 8)).astype("float32")
b = rng.normal(size=(N, 8)).astype("float32")
same = (rng.uniform(size=(N, 1)) < 0.5).astype("float32")
b[same[:, 0] == 1] = a[same[:, 0] == 1] + 0.1 * rng.normal(size=(int(same.sum()), 8))


def euclidean_distance(vects):
    x, y = vects
    sum_square = ops.sum(ops.square(x - y), axis=1, keepdims=True)
    return ops.sqrt(ops.maximum(sum_square, keras.backend.epsilon()))


def contrastive_loss(margin=1):
    def loss(y_true, y_pred):
        square_pred = ops.square(y_pred)
        margin_square = ops.square(ops.maximum(margin - y_pred, 0))
        return ops.mean((1 - y_true) * square_pred + y_true * margin_square)
    return loss


tower = keras.Sequential([keras.Input((8,)), layers.BatchNormalization(), layers.Dense(16, activation="tanh"),
                          layers.Dense(4)], name="tower")
in1, in2 = keras.Input((8,)), keras.Input((8,))
dist = layers.Lambda(euclidean_distance, output_shape=(1,))([tower(in1), tower(in2)])
norm = layers.BatchNormalization()(dist)
out = layers.Dense(1, activation="sigmoid")(norm)
siamese = keras.Model([in1, in2], out)
siamese.compile(loss=contrastive_loss(margin=1), optimizer="RMSprop", metrics=["accuracy"])
before = [w.numpy().copy() for w in siamese.trainable_weights]
siamese.fit([a, b], 1 - same, batch_size=8, epochs=1, verbose=0)
# the tower's last bias cancels in tower(a) - tower(b): its gradient is exactly zero, by design
changed = {w.path: not np.allclose(b_, w.numpy()) for b_, w in zip(before, siamese.trainable_weights)}
assert [p for p, c in changed.items() if not c] == ["tower/dense_1/bias"], changed
