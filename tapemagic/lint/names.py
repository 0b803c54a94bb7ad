"""Which API a call names: import aliases resolved to dotted names, and the tables of cut APIs.

TF-free. ``tf.keras.backend.eval`` in a file that did ``import tensorflow as tf`` resolves to
``keras.backend.eval`` (``tensorflow.keras`` and ``tf_keras`` are spelled ``keras`` here, as
Keras 3 is what TF 2.16+ ships), ``np.mean`` to ``numpy.mean``. The tables say what each cut API
does to the gradient; the facts are TensorFlow's gradient registry (ArgMax, Round, Floor, Ceil,
Rint, Unique and the comparisons have no gradient or a None one; no gradient crosses an integer
or boolean tensor; ``tf.numpy_function`` has none), as ``optypes.py`` keeps them.
"""

from __future__ import annotations

import ast

_PREFIXES = (("tensorflow.keras.", "keras."), ("tf_keras.", "keras."),
             ("tensorflow.math.", "tensorflow."), ("tensorflow.dtypes.", "tensorflow."),
             ("keras.src.", "keras."), ("keras.api.", "keras."),
             ("keras.ops.numpy.", "keras.ops."), ("keras.ops.nn.", "keras.ops."),
             ("keras.ops.math.", "keras.ops."), ("keras.ops.core.", "keras.ops."),
             ("tensorflow.experimental.numpy.", "tensorflow."))

#: Calls that turn a tensor into a host (Python or NumPy) value, by dotted name.
HOST = frozenset({
    "float", "int", "keras.backend.eval", "keras.backend.get_value",
    "keras.ops.convert_to_numpy", "keras.backend.convert_to_numpy",
    "tensorflow.get_static_value", "tensorflow.make_ndarray", "keras.utils.to_categorical",
})
#: Python's ``math`` module: its functions turn a tensor into a Python float first.
HOST_MODULES = ("numpy.", "math.")
#: Methods that turn a tensor into a host value (``x.numpy()``); ``predict`` is Model.predict.
HOST_METHODS = frozenset({"numpy", "item", "tolist", "predict", "predict_on_batch"})
#: Ops without a usable gradient (registered as not differentiable, or returning None).
NON_DIFFERENTIABLE = frozenset(
    f"{module}.{name}" for module in ("tensorflow", "keras.ops", "keras.backend")
    for name in ("argmax", "argmin", "round", "floor", "ceil", "rint", "unique", "equal",
                 "not_equal", "greater", "greater_equal", "less", "less_equal",
                 "floordiv", "floor_div", "floor_divide", "logical_and", "logical_or",
                 "logical_not", "unique_with_counts")
) | frozenset(
    # samples drawn from logits (Multinomial, StatelessMultinomial: NotDifferentiable);
    # a Bernoulli draw by comparison is a comparison (above)
    f"{module}.{name}" for module in ("tensorflow.random", "keras.random")
    for name in ("categorical", "stateless_categorical")
) | frozenset({"tensorflow.multinomial"}) | frozenset(
    # accuracy metrics compare predictions with labels (tf.equal, a cast): no gradient
    f"keras.metrics.{name}" for name in (
        "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
        "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy")
)
#: TensorFlow Probability's distributions whose samples are not reparameterized
#: (``reparameterization_type`` NOT_REPARAMETERIZED): a sample has no gradient to the
#: parameters; only ``log_prob`` (a score-function estimator) carries them.
DISCRETE_DISTRIBUTIONS = frozenset(
    f"tensorflow_probability.distributions.{name}" for name in (
        "Bernoulli", "Categorical", "OneHotCategorical", "Binomial", "Multinomial", "Poisson",
        "Geometric", "NegativeBinomial", "DirichletMultinomial", "PlackettLuce"))
#: Random draws of 0/1 (or counts) with a probability given: the draw carries no gradient
#: to it (a comparison with a uniform sample, or a binomial sampler). The probability's
#: keyword and position.
BINARY_DRAWS = {"keras.backend.random_binomial": ("p", 1),
                "keras.random.binomial": ("probabilities", 2),
                "tensorflow.random.stateless_binomial": ("probs", 3)}
#: Ops whose registered gradient is zeros everywhere (math_grad.py ``_SignGrad``): the path
#: stays connected, but nothing flows back through them.
ZERO_GRADIENT = frozenset(f"{module}.sign" for module in ("tensorflow", "keras.ops",
                                                          "keras.backend"))
#: Clips by two bounds, each API with its bounds' parameter names: ``minimum(maximum(t, lo),
#: hi)`` (TensorFlow's clip_by_value, Keras 3's ``ops.clip`` through it; Keras 2's backend
#: raises ``hi`` to ``lo``) is one constant everywhere when ``lo > hi``: its gradient is zero.
CLIPS = {"tensorflow.clip_by_value": ("clip_value_min", "clip_value_max"),
         "keras.ops.clip": ("x_min", "x_max"), "keras.backend.clip": ("min_value", "max_value")}
#: tf.data pipelines made from tensors: each element comes out of the dataset's iterator op,
#: and no tape records a path from the tensors given to the elements (no dataset op has a
#: gradient), so a loss built by looping over one depends on nothing it was made from.
DATASET_MAKERS = frozenset(f"tensorflow.data.Dataset.{name}" for name in (
    "from_tensor_slices", "from_tensors"))
#: Ops that run a function of the user's in a loop; ``back_prop=False`` makes their traced
#: form (while_v2) wrap the results in ``stop_gradient``. Eagerly the loop is plain Python
#: and the flag does nothing.
BACK_PROP_OPS = frozenset({"tensorflow.map_fn", "tensorflow.while_loop", "tensorflow.scan",
                           "tensorflow.foldl", "tensorflow.foldr",
                           "tensorflow.compat.v1.map_fn", "tensorflow.compat.v1.while_loop",
                           "tensorflow.compat.v1.scan", "tensorflow.compat.v1.foldl",
                           "tensorflow.compat.v1.foldr"})
#: Ops whose result is integer-typed whatever their input (indices).
INTEGER_RESULT = frozenset(
    f"{module}.{name}" for module in ("tensorflow", "keras.ops")
    for name in ("argsort", "searchsorted", "histogram_fixed_width", "digitize", "bincount")
)
#: Casts: a cut when the target dtype is an integer or boolean one.
CASTS = frozenset({"tensorflow.cast", "tensorflow.saturate_cast", "keras.ops.cast",
                   "keras.backend.cast"})
INTEGER_DTYPES = frozenset({
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    # TensorFlow's quantized types hold integers too (no gradient flows into one)
    "qint8", "quint8", "qint16", "quint16", "qint32",
})
NUMPY_FUNCTION = frozenset({"tensorflow.numpy_function", "tensorflow.compat.v1.py_func",
                            "tensorflow.py_func"})
PY_FUNCTION = frozenset({"tensorflow.py_function"})
STOP_GRADIENT = frozenset({"tensorflow.stop_gradient", "keras.ops.stop_gradient",
                           "keras.backend.stop_gradient"})
TOP_K = frozenset({"tensorflow.top_k", "tensorflow.nn.top_k", "keras.ops.top_k"})
#: Ops whose result says nothing of their input's values (no path to the weights through them).
METADATA = frozenset(
    f"{module}.{name}" for module in ("tensorflow", "keras.ops", "keras.backend")
    for name in ("shape", "size", "rank", "zeros_like", "ones_like", "shape_n", "int_shape")
)
#: Calls that make a tensor from their first argument, of a ``dtype`` given or inferred.
TENSOR_MAKERS = frozenset({"tensorflow.constant", "tensorflow.convert_to_tensor",
                           "keras.ops.convert_to_tensor"})
#: Calls that copy a variable's current value into a new constant: ``tf.constant(v)`` converts
#: the variable as a host value (eagerly, ``EagerTensor(value)`` reads it with no op the tape
#: records; traced, it raises), so what reads the copy has lost the variable. A tensor is
#: passed through eagerly, and ``tf.convert_to_tensor(v)`` reads the variable with an op.
CONSTANT_COPIES = frozenset({"tensorflow.constant"})
#: Ops whose result keeps the dtype of their first argument (an integer stays integer).
DTYPE_KEEPING = frozenset(
    f"{module}.{name}" for module in ("tensorflow", "keras.ops")
    for name in ("expand_dims", "reshape", "squeeze", "identity", "tile", "concat",
                 "stack", "transpose")
)
#: Keras layers that use their input as indices (an Embedding casts it to an integer).
INDEX_LAYERS = frozenset({"Embedding"})
#: Keras preprocessing layers that turn their input into integer ids (or counts of ids, a
#: bucket index): no gradient crosses them to their input. Made from data before the first
#: weight (text to token ids for an Embedding), they are no cut at all.
INTEGER_LAYERS = frozenset({"TextVectorization", "StringLookup", "IntegerLookup", "Hashing",
                            "HashedCrossing", "Discretization", "CategoryEncoding"})
#: Keras layers that hold no variable: calling one reads no weights, so its output depends on
#: weights only through its input. Token ids a lookup layer makes from text are then not on
#: the path from the weights (reading the layer as a weight put the ids after a "weight" and
#: the Embedding's lookup on the weights-to-loss path). Layers with any variable, trainable or
#: not (PReLU, Normalization's adapted mean), are left out: they are read as weights.
WEIGHTLESS_LAYERS = INTEGER_LAYERS | frozenset({
    "Flatten", "Reshape", "Permute", "RepeatVector", "Masking", "Identity", "Activation",
    "ReLU", "Softmax", "LeakyReLU", "ELU", "ThresholdedReLU", "Dropout", "AlphaDropout",
    "GaussianDropout", "GaussianNoise", "ActivityRegularization", "UnitNormalization",
    "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
    "Rescaling", "Resizing", "CenterCrop", "RandomCrop", "RandomFlip", "RandomRotation",
    "RandomZoom", "RandomTranslation", "RandomContrast", "RandomBrightness", "RandomHeight",
    "RandomWidth",
}) | frozenset(
    f"{name}{n}D" for n in (1, 2, 3) for name in (
        "SpatialDropout", "Cropping", "ZeroPadding", "UpSampling", "MaxPooling", "MaxPool",
        "AveragePooling", "AvgPool", "GlobalMaxPooling", "GlobalMaxPool",
        "GlobalAveragePooling", "GlobalAvgPool"))
#: Tokenizer methods that give token ids (integers).
TOKENIZER_METHODS = frozenset({"__call__", "encode", "encode_plus", "batch_encode_plus",
                               "convert_tokens_to_ids"})
#: Ops that call a function of the user's on their tensors (its ops are recorded).
MAP_OPS = frozenset({"tensorflow.map_fn", "tensorflow.vectorized_map", "keras.ops.map",
                     "keras.ops.vectorized_map"})
WHILE_OPS = frozenset({"tensorflow.while_loop", "keras.ops.while_loop"})
COND_OPS = frozenset({"tensorflow.cond", "keras.ops.cond"})
#: ``fn(accumulator, element)`` over ``elems`` from ``initializer`` (tf.scan's argument order)
SCAN_OPS = frozenset({"tensorflow.scan", "tensorflow.foldl", "tensorflow.foldr"})
GRADIENT_TAPE = frozenset({"tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"})
VARIABLE = frozenset({"tensorflow.Variable", "keras.Variable", "keras.backend.Variable"})
#: Keras base classes a user's class may extend to be a layer, model or loss.
LAYER_BASES = frozenset({"keras.layers.Layer", "keras.Layer", "keras.Model", "keras.models.Model",
                         "keras.Sequential", "keras.models.Sequential", "tensorflow.Module"})
KERAS_BASES = LAYER_BASES - {"tensorflow.Module"}


def keras_bases(bases: set[str]) -> set[str]:
    """Return the Keras layer or model classes among a class's dotted ``bases``.

    Keras' own layers count (``class BinaryDense(keras.layers.Dense)``): the subclass is a
    layer, whose ``call`` Keras runs.
    """
    return {b for b in bases if b in KERAS_BASES or (
        b.startswith("keras.layers.") and b.rsplit(".", 1)[-1][:1].isupper())}
LOSS_BASES = frozenset({"keras.losses.Loss", "keras.Loss"})
SEQUENTIAL = frozenset({"keras.Sequential", "keras.models.Sequential"})
FUNCTIONAL = frozenset({"keras.Model", "keras.models.Model"})
LAMBDA_LAYER = frozenset({"keras.layers.Lambda"})
#: Copies of a model's architecture with weights of their own (keras/src/models/cloning.py).
CLONES = frozenset({"keras.models.clone_model"})
INPUT = frozenset({"keras.Input", "keras.layers.Input", "keras.layers.InputLayer"})
#: Attributes of a model that list its weights (``model.weights`` also lists non-trainable ones).
WEIGHT_LISTS = frozenset({"trainable_variables", "trainable_weights", "weights", "variables",
                          "non_trainable_variables", "non_trainable_weights"})
#: Lookups of rows by index: differentiable in their params (argument 0) only.
GATHERS = frozenset({"tensorflow.gather", "tensorflow.gather_nd",
                     "tensorflow.nn.embedding_lookup", "keras.ops.take"})
#: The APIs the tables above decide; TensorFlow's catalog (``catalog.py``) decides the rest.
KNOWN = (HOST | NON_DIFFERENTIABLE | DISCRETE_DISTRIBUTIONS | frozenset(BINARY_DRAWS)
         | ZERO_GRADIENT | INTEGER_RESULT | CASTS | NUMPY_FUNCTION | PY_FUNCTION | STOP_GRADIENT
         | TOP_K | METADATA | TENSOR_MAKERS | DTYPE_KEEPING | MAP_OPS | WHILE_OPS | COND_OPS
         | SCAN_OPS | GRADIENT_TAPE | VARIABLE)
_COMPARISONS = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==",
                ast.NotEq: "!="}


def comparison_api(op: ast.cmpop) -> str | None:
    """Return the operator text of a comparison on tensors (no gradient), or None."""
    return _COMPARISONS.get(type(op))


def tokenizer_factory(dotted: str) -> bool:
    """Whether ``dotted`` loads a text tokenizer (``AutoTokenizer.from_pretrained``)."""
    head, _, last = dotted.rpartition(".")
    return last == "from_pretrained" and head.rsplit(".", 1)[-1].endswith(
        ("Tokenizer", "TokenizerFast"))


def normalise(name: str) -> str:
    """Return ``name`` with the Keras / ``tf.math`` aliases folded (``tensorflow.keras.x``)."""
    changed = True
    while changed:
        changed = False
        for prefix, short in _PREFIXES:
            if name.startswith(prefix):
                name, changed = short + name[len(prefix):], True
    return name


#: Import aliases everyone uses, assumed when a source uses them without importing them.
_CONVENTIONAL = {"tf": "tensorflow", "np": "numpy", "keras": "keras", "K": "keras.backend"}


class Imports:
    """The import aliases of one module: local name → dotted module or object path."""

    def __init__(self, tree: ast.Module) -> None:
        self.aliases: dict[str, str] = {}
        bound: set[str] = set()
        stores: dict[str, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stores[node.id] = stores.get(node.id, 0) + 1
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        self.aliases[head] = head
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
        # A notebook cell is often checked alone: its imports are in an earlier cell. The
        # conventional aliases then mean what they always mean, unless this source binds them.
        for short, module in _CONVENTIONAL.items():
            if short not in self.aliases and short not in bound:
                self.aliases[short] = module
        # `K = tf.keras.backend`, `layers = tf.keras.layers`: a module-level name bound once
        # to an imported path is that path
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name) and \
                    isinstance(stmt.value, (ast.Attribute, ast.Name)) and \
                    stores.get(stmt.targets[0].id) == 1:
                found = self.dotted(stmt.value)
                if found is not None:
                    self.aliases[stmt.targets[0].id] = found

    def dotted(self, node: ast.expr) -> str | None:
        """Return the normalised dotted name of ``a.b.c`` when ``a`` is an import, else None."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return normalise(".".join([self.aliases[node.id], *reversed(parts)]))
