# source: https://github.com/tensorflow/models/pull/8090
# cause: stop-gradient
# weights: frame_encoder/frame_proj/kernel, frame_encoder/frame_proj/bias
# mode: function
# summary: a video classifier encodes each clip's frames with tf.map_fn and passes back_prop=False (copied from inference code to save memory); map_fn then wraps its results in stop_gradient, so the temporal head trains and the frame encoder gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(8090)
clips = rng.normal(size=(6, 5, 10)).astype("float32")
labels = rng.integers(0, 3, size=(6,))

frame_encoder = tf.keras.Sequential([tf.keras.Input((10,)),
                                     tf.keras.layers.Dense(4, activation="tanh", name="frame_proj")],
                                    name="frame_encoder")
temporal_head = tf.keras.Sequential([tf.keras.Input((5, 4)), tf.keras.layers.GRU(6, name="gru"),
                                     tf.keras.layers.Dense(3, name="logits")], name="temporal_head")
optimizer = tf.keras.optimizers.Adam(1e-2)
sources = frame_encoder.trainable_variables + temporal_head.trainable_variables
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(batch, targets):
    with tf.GradientTape() as tape:
        encoded = tf.map_fn(frame_encoder, batch, back_prop=False,  # expect: stop-gradient primary
                            fn_output_signature=tf.TensorSpec((5, 4), tf.float32))
        loss = xent(targets, temporal_head(encoded, training=True))
    return loss, tape.gradient(loss, sources)


loss, grads = train_step(clips, labels)
print("grads are None:", [g is None for g in grads])
