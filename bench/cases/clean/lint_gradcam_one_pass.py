# source: https://keras.io/examples/vision/grad_cam/
# summary: Grad-CAM done right: one grad_model pass gives the conv output and the score, the class picked by argmax inside the tape, the model called again only for display
import numpy as np
import tensorflow as tf
import keras

tf.keras.utils.set_random_seed(0)

inputs = keras.Input((8, 8, 3))
features = keras.layers.Conv2D(4, 3, name="last_conv")(inputs)
pooled_features = keras.layers.GlobalAveragePooling2D()(features)
model = keras.Model(inputs, keras.layers.Dense(5, name="logits")(pooled_features), name="cam")


def gradcam(image, net, layer_name, index=None):
    grad_model = keras.Model(net.inputs, [net.get_layer(layer_name).output, net.output])
    with tf.GradientTape() as tape:
        conv_out, preds = grad_model(image)
        if index is None:
            index = tf.argmax(preds[0])
        channel = preds[:, index]
    grads = tape.gradient(channel, conv_out)
    pooled = tf.reduce_mean(grads, axis=(0, 1, 2))
    heat = tf.squeeze(conv_out[0] @ pooled[..., tf.newaxis])
    return grads, heat


rng = np.random.default_rng(1714)
image = rng.random((1, 8, 8, 3)).astype("float32")
shown = model(image)
grads, heat = gradcam(image, model, "last_conv")
assert grads is not None and float(tf.reduce_max(tf.abs(grads))) > 0
