import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
class Tracker:
    def __init__(self):
        self.reads = 0
    @property
    def scale(self):
        self.reads += 1
        print("scale read", self.reads)
        return 2.0
tracker = Tracker()
history = []
def loss_fn(pred, log):
    host = pred.numpy()
    log += [tf.reduce_mean(host)]
    loss = tf.reduce_sum(host) * tracker.scale
    return loss
@tf.function(autograph=False)
def step():
    with tf.GradientTape() as tape:
        loss = loss_fn(model(x), history)
    return tape.gradient(loss, model.trainable_weights)
try:
    step()
except AttributeError as e:
    print("caught", type(e).__name__)
OUT_reads = tracker.reads
OUT_hist = len(history)
