# summary: the keras.io "Text classification with Transformer" block trained with fit; the attention key projection's bias (shape (heads, key_dim)) gets a round-off gradient by construction, as the softmax ignores a score added to every key
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

tf.keras.utils.set_random_seed(12)


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = tf.keras.Sequential([layers.Dense(ff_dim, activation="relu"),
                                        layers.Dense(embed_dim)])
        self.norm1 = layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs):
        out1 = self.norm1(inputs + self.att(inputs, inputs))
        return self.norm2(out1 + self.ffn(out1))


vocab, maxlen, dim = 50, 10, 8
inputs = layers.Input(shape=(maxlen,), dtype="int32")
h = layers.Embedding(vocab, dim)(inputs)
h = TransformerBlock(dim, 2, 16)(h)
h = layers.GlobalAveragePooling1D()(h)
outputs = layers.Dense(2, activation="softmax")(h)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
rng = np.random.default_rng(12)
xs = rng.integers(1, vocab, size=(32, maxlen))
ys = rng.integers(0, 2, size=(32,))
history = model.fit(xs, ys, batch_size=8, epochs=2, verbose=0)
print([round(v, 4) for v in history.history["loss"]])
