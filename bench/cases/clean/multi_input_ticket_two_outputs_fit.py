# summary: the functional API's ticket model: a title and a body (Embedding + LSTM each) and tag features in, a priority score and a department softmax out, a loss dict with loss_weights, fit on dicts
# source: https://keras.io/guides/functional_api/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)
n, words, tags, departments = 48, 50, 6, 3
title_input = keras.Input(shape=(None,), name="title")
body_input = keras.Input(shape=(None,), name="body")
tags_input = keras.Input(shape=(tags,), name="tags")
title_features = layers.LSTM(8, name="title_lstm")(layers.Embedding(words, 8, name="title_embed")(title_input))
body_features = layers.LSTM(4, name="body_lstm")(layers.Embedding(words, 8, name="body_embed")(body_input))
x = layers.concatenate([title_features, body_features, tags_input])
priority_pred = layers.Dense(1, name="priority")(x)
department_pred = layers.Dense(departments, name="department")(x)
model = keras.Model(inputs=[title_input, body_input, tags_input], outputs={"priority": priority_pred,
                                                                           "department": department_pred})
model.compile(optimizer=keras.optimizers.RMSprop(1e-2),
              loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
              loss_weights={"priority": 1.0, "department": 0.2})
title_data = rng.integers(0, words, size=(n, 5))
body_data = rng.integers(0, words, size=(n, 9))
tags_data = rng.integers(0, 2, size=(n, tags)).astype("float32")
priority_targets = rng.uniform(size=(n, 1)).astype("float32")
dept_targets = np.eye(departments, dtype="float32")[rng.integers(0, departments, size=n)]
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit({"title": title_data, "body": body_data, "tags": tags_data},
          {"priority": priority_targets, "department": dept_targets}, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
