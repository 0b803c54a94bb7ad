# source: https://github.com/tensorflow/tensorflow/issues/62797
# cause: not-connected
# rule: TM104
# weights: -
# mode: function
# summary: Grad-CAM: the class score is read from a second, independent forward pass of the model, not from the grad model's output the tape watched
# lint: no (not-connected: two forward passes; no cut API is on any path)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

inputs = tf.keras.Input((8, 8, 1))
features = tf.keras.layers.Conv2D(4, 3, activation="relu", name="last_conv")(inputs)
pooled = tf.keras.layers.GlobalAveragePooling2D()(features)
outputs = tf.keras.layers.Dense(3, name="logits")(pooled)
model = tf.keras.Model(inputs, outputs, name="cnn")
grad_model = tf.keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])

image = tf.constant(np.random.default_rng(3).random((1, 8, 8, 1)).astype("float32"))


@tf.function
def heatmap(img):
    with tf.GradientTape() as tape:
        conv_out, _ = grad_model(img)
        preds = model(img)  # expect: not-connected primary
        top = tf.argmax(preds[0])
        score = preds[:, top]
    grads = tape.gradient(score, conv_out)
    return grads


grads = heatmap(image)
print("grads:", grads)
