# summary: Grad-CAM: the class score is read from the grad model's own output, computed with the feature map the tape watched
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
        conv_out, preds = grad_model(img)
        top = tf.argmax(preds[0])
        score = preds[:, top]
    grads = tape.gradient(score, conv_out)
    return grads


grads = heatmap(image)
assert grads is not None and float(tf.reduce_sum(tf.abs(grads))) > 0, grads
print("grads:", float(tf.reduce_sum(tf.abs(grads))))
