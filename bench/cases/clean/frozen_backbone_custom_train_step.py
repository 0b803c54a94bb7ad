# source: https://github.com/tensorflow/tensorflow/issues/29073
# summary: a Keras 3 model with its own train_step freezes its pretrained backbone in __init__ on purpose and differentiates the whole model's trainable_variables, which hold the head's weights: the head trains, the backbone stays as it is
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(29073)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] - x[:, 1:2]).astype("float32")


class FineTuner(tf.keras.Model):
    def __init__(self):
        super().__init__(name="fine_tuner")
        self.backbone = tf.keras.Sequential([tf.keras.Input((4,)),
                                             tf.keras.layers.Dense(8, activation="relu",
                                                                   name="bb_dense")],
                                            name="backbone")
        self.backbone.trainable = False
        self.head = tf.keras.layers.Dense(1, name="head")

    def call(self, inputs):
        return self.head(self.backbone(inputs))

    def train_step(self, data):
        features, targets = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(features, training=True) - targets))
        variables = self.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return {"loss": loss}


model = FineTuner()
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2))
model(x[:1])
before = [w.numpy().copy() for w in model.head.weights]
frozen = [w.numpy().copy() for w in model.backbone.weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(before) == 2
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.head.weights))
assert all(np.all(b == w.numpy()) for b, w in zip(frozen, model.backbone.weights))
