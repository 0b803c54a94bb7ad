# source: https://github.com/tensorlayer/TensorLayer/issues/891
# cause: non-differentiable-op
# rule: TM201
# weights: seg/enc/kernel, seg/enc/bias, seg/cls/kernel, seg/cls/bias
# mode: function
# summary: a Dice loss is taken on the one-hot of the argmax of the per-pixel logits
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
images = rng.normal(size=(4, 8, 8, 3)).astype("float32")
masks = tf.one_hot(rng.integers(0, 2, size=(4, 8, 8)), 2)
model = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 3)),
                             tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu",
                                                    name="enc"),
                             tf.keras.layers.Conv2D(2, 1, name="cls")], name="seg")
optimizer = tf.keras.optimizers.Adam(1e-3)


def dice_loss(pred, target):
    overlap = tf.reduce_sum(pred * target, axis=[1, 2])
    total = tf.reduce_sum(pred + target, axis=[1, 2])
    return 1.0 - tf.reduce_mean((2.0 * overlap + 1.0) / (total + 1.0))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        pred = tf.one_hot(tf.argmax(logits, -1), 2)  # expect: non-differentiable-op primary
        loss = dice_loss(pred, y)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


print(float(train_step(images, masks)))
