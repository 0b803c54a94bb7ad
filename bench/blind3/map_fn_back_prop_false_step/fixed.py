# summary: the frames are encoded with tf.map_fn without back_prop=False, so the gradient flows through the map into the frame encoder and every weight of both networks gets one
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
        encoded = tf.map_fn(frame_encoder, batch,
                            fn_output_signature=tf.TensorSpec((5, 4), tf.float32))
        loss = xent(targets, temporal_head(encoded, training=True))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss, grads


loss, grads = train_step(clips, labels)
assert len(grads) == 7
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
