# summary: tf.distribute.MirroredStrategy over two logical CPUs, a model built under strategy.scope() with a frozen pre-trained embedding (trainable=False) and a trained LSTM head, fit
# source: https://www.tensorflow.org/tutorials/distribute/keras
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras
from keras import layers

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
ids = rng.integers(0, 30, size=(32, 6)).astype("int32")
y = rng.integers(0, 2, size=(32,))
pretrained = rng.normal(size=(30, 8)).astype("float32")
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    emb = layers.Embedding(30, 8, trainable=False, name="emb")
    model = keras.Sequential([keras.Input((6,), dtype="int32"), emb,
                              layers.LSTM(8, name="lstm"), layers.Dense(1, activation="sigmoid", name="out")])
    emb.set_weights([pretrained])
    model.compile("adam", "binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
assert np.allclose(emb.get_weights()[0], pretrained)
