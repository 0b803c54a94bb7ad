# source: https://github.com/tensorflow/tensorflow/issues/39793
# cause: sources-mismatch
# rule: TM122
# weights: feature_scale/scale
# mode: fit
# summary: a custom layer makes its per-feature scale with trainable=self.learn_scale; get_config returns units but leaves learn_scale out, so keras.models.clone_model (a student that starts from the teacher's weights) rebuilds the layer with the default learn_scale=False, and the student's fit never changes the scale while its dense head trains
# lint: no (the missing key is a serialization detail; each line is valid)
import keras
import numpy as np

keras.utils.set_random_seed(0)


class FeatureScale(keras.layers.Layer):
    def __init__(self, units, learn_scale=False, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.learn_scale = learn_scale

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(self.units,), initializer="ones", name="scale",
                                     trainable=self.learn_scale)

    def call(self, inputs):
        return inputs * self.scale

    def get_config(self):
        return {**super().get_config(), "units": self.units}  # expect: sources-mismatch primary


rng = np.random.default_rng(42830)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")

inputs = keras.Input((4,))
scaled = FeatureScale(4, learn_scale=True, name="feature_scale")(inputs)
teacher = keras.Model(inputs, keras.layers.Dense(1, name="head")(scaled), name="teacher")

student = keras.models.clone_model(teacher)
student.set_weights(teacher.get_weights())
student.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
before = {w.path: w.numpy().copy() for w in student.weights}
student.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in student.weights})
