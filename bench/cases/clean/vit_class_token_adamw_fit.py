# summary: a tiny ViT: patches by ops.image.extract_patches, a PatchEncoder with a learned class token (add_weight) and position Embedding, a transformer block, fit with AdamW (whose weight decay reads the round-off-gradient attention key bias in the same traced step)
# source: https://keras.io/examples/vision/image_classification_with_vision_transformer/
import numpy as np
import keras
from keras import layers, ops

keras.utils.set_random_seed(40)
rng = np.random.default_rng(40)
x = rng.uniform(size=(16, 8, 8, 3)).astype("float32")
y = rng.integers(0, 3, size=16)
P, D = 4, 12
num_patches = (8 // P) ** 2


class Patches(layers.Layer):
    def call(self, images):
        patches = ops.image.extract_patches(images, size=P)
        b = ops.shape(patches)[0]
        return ops.reshape(patches, (b, num_patches, P * P * 3))


class PatchEncoder(layers.Layer):
    def __init__(self):
        super().__init__()
        self.projection = layers.Dense(D)
        self.position_embedding = layers.Embedding(num_patches + 1, D)

    def build(self, shape):
        self.cls = self.add_weight(shape=(1, 1, D), initializer="random_normal", name="cls_token")

    def call(self, patch):
        b = ops.shape(patch)[0]
        tokens = ops.concatenate([ops.tile(self.cls, (b, 1, 1)), self.projection(patch)], axis=1)
        positions = ops.expand_dims(ops.arange(0, num_patches + 1), 0)
        return tokens + self.position_embedding(positions)


inp = keras.Input((8, 8, 3))
h = PatchEncoder()(Patches()(inp))
a = layers.LayerNormalization(epsilon=1e-6)(h)
a = layers.MultiHeadAttention(num_heads=2, key_dim=D // 2, dropout=0.1)(a, a)
h = layers.Add()([a, h])
m = layers.LayerNormalization(epsilon=1e-6)(h)
m = layers.Dense(D, activation="gelu")(m)
h = layers.Add()([m, h])
out = layers.Dense(3)(layers.LayerNormalization()(h)[:, 0])
model = keras.Model(inp, out)
model.compile(keras.optimizers.AdamW(1e-3, weight_decay=1e-4),
              keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[keras.metrics.SparseTopKCategoricalAccuracy(2, name="top2")])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
