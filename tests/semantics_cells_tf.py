"""Correct cells for tests/test_semantics.py: tf.function, jacobians, distribution, Keras, data."""

from __future__ import annotations

from tests.semantics_cells import cell

# -- tf.function ---------------------------------------------------------------------------------
cell("tf.function seeded random ops", """
    tf.random.set_seed(7)
    @tf.function
    def noisy(x):
        return x + tf.random.uniform(tf.shape(x))
    _out = _fp(noisy(tf.zeros(3)), noisy(tf.zeros(3)))
    """)
cell("tf.function python print runs at tracing only", """
    @tf.function
    def f(x):
        print("tracing f")
        return x * 2.0
    for i in range(3):
        y = f(tf.constant(float(i)))
    _out = _fp(y)
    """)
cell("tf.function train step", """
    w = tf.Variable([[0.5], [-0.25]])
    opt = keras.optimizers.SGD(0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([[1.0], [0.0]])
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w - y) ** 2)
        grads = tape.gradient(loss, [w])
        opt.apply_gradients(zip(grads, [w]))
        return loss
    losses = [step() for _step in range(5)]
    _out = _fp(losses, w)
    """)
cell("tf.function with tf.Module", """
    class Scale(tf.Module):
        def __init__(self):
            self.k = tf.Variable(2.0)
        @tf.function
        def __call__(self, x):
            return self.k * x
    m = Scale()
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(m(tf.constant([1.0, 2.0])))
    g = tape.gradient(out, m.trainable_variables)
    _out = _fp(out, g)
    """)
cell("cell sets run_functions_eagerly itself", """
    tf.config.run_functions_eagerly(True)
    @tf.function
    def f(x):
        return x + 1.0, tf.executing_eagerly()
    a = f(tf.constant(1.0))
    tf.config.run_functions_eagerly(False)
    _out = _fp(a[0], bool(a[1]), tf.config.functions_run_eagerly())
    """)
cell("cell reads functions_run_eagerly after setting it False", """
    tf.config.run_functions_eagerly(False)
    g = tf.function(lambda x: (x * 3.0, tf.executing_eagerly()))
    r = g(tf.constant(2.0))
    _out = _fp(r[0], bool(r[1]), tf.config.functions_run_eagerly())
    """)

# -- jacobians -------------------------------------------------------------------------------------
cell("jacobian", """
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = x * x + tf.reduce_sum(x)
    j = tape.jacobian(y, x)
    _out = _fp(j)
    """)
cell("batch_jacobian", """
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * 2.0
    j = tape.batch_jacobian(y, x)
    _out = _fp(j)
    """)
cell("jacobian without vectorization", """
    x = tf.Variable([0.5, -1.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(x) * x
    j = tape.jacobian(y, x, experimental_use_pfor=False)
    del tape
    _out = _fp(j)
    """)

# -- distribution, precision -----------------------------------------------------------------------
cell("MirroredStrategy custom step on CPU", """
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        model = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
        opt = keras.optimizers.SGD(0.05)
    x = tf.ones((4, 3))
    y = tf.zeros((4, 2))
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    loss = strategy.run(step, args=(x, y))
    _out = _fp(loss, model.get_weights())
    """)
cell("MirroredStrategy step inside a tf.function", """
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        w = tf.Variable([[1.0], [2.0]])
    x = tf.ones((4, 2))
    @tf.function
    def train_step():
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(x @ w)
            w.assign_sub(0.01 * tape.gradient(loss, w))
            return loss
        return strategy.run(step)
    losses = [train_step() for _step in range(2)]
    _out = _fp(losses, w)
    """)
cell("mixed precision custom step", """
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3),
                                  keras.layers.Dense(1, dtype="float32")])
        opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.01))
        x = tf.random.normal((8, 4), seed=1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    finally:
        keras.mixed_precision.set_global_policy("float32")
    _out = _fp(loss, model.get_weights())
    """)

# -- Keras fit / evaluate / predict ----------------------------------------------------------------
cell("fit with callbacks, then evaluate and predict", """
    class Log(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            print("epoch", epoch, sorted(logs))
    x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(8, "relu"),
                              keras.layers.Dense(1, "sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=16, verbose=0, callbacks=[Log()])
    ev = model.evaluate(x, y, verbose=0)
    pred = model.predict(x[:4], verbose=0)
    _out = _fp(history.history["loss"], ev, pred, model.get_weights())
    """)
cell("fit with a custom train_step", """
    class Custom(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}
    inputs = keras.Input((3,))
    model = Custom(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd")
    x = np.ones((32, 3), "float32")
    y = np.zeros((32, 1), "float32")
    h = model.fit(x, y, epochs=1, batch_size=8, verbose=0)
    _out = _fp(h.history["loss"], model.get_weights())
    """)
cell("fit on a tf.data pipeline", """
    ds = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal((40, 5), seed=2), tf.random.normal((40, 1), seed=3))).batch(10)
    model = keras.Sequential([keras.layers.Input((5,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    h = model.fit(ds, epochs=1, verbose=0)
    _out = _fp(h.history["loss"], model.get_weights())
    """)

# -- tf.data ---------------------------------------------------------------------------------------
cell("tf.data map batch custom loop", """
    ds = (tf.data.Dataset.range(12).map(lambda i: (tf.cast(i, tf.float32), 2.0 * tf.cast(i,
          tf.float32))).batch(4))
    w = tf.Variable(0.5)
    for xb, yb in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * xb - yb) ** 2)
        w.assign_sub(0.01 * tape.gradient(loss, w))
    _out = _fp(w, loss)
    """)
cell("tf.data with py_function", """
    def double(v):
        return v.numpy() * 2
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0]).map(
        lambda v: tf.py_function(double, [v], tf.float32))
    _out = _fp([float(v) for v in ds])
    """)
