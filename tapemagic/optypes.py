"""Op-type tables shared by the tracer and the analysis (TF-free).

One place for the facts about TensorFlow op types that both halves need: which ops read or write
a variable, which are shape metadata, which have a registered gradient that returns None. The
tracer (``tapemagic.tracing.recorder``) uses them to index variable handles while recording; the
analysis (``tapemagic.graph.provenance``) to classify edges. Sources are named per table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Ops whose registered gradient function returns None for every input
#: (tensorflow/python/ops/math_grad.py: _ArgMaxGrad, _ArgMinGrad, _RoundGrad, _FloorGrad,
#: _CeilGrad, _RintGrad, _FloorDivGrad, _TruncateDivGrad).
RETURNS_NONE = frozenset(
    {"ArgMax", "ArgMin", "Round", "Floor", "Ceil", "Rint", "FloorDiv", "TruncateDiv"}
)

#: Ops whose registered gradient is exactly zero wherever it is defined
#: (math_grad.py: _SignGrad returns zeros_like).
ZERO_GRADIENT = frozenset({"Sign"})

#: Ops whose gradient is zero wherever the op saturates (math_grad.py / nn_grad.py: _ReluGrad
#: passes where the output is > 0; _ClipByValueGrad, _MaximumGrad, _MinimumGrad route the
#: gradient to the selected input only): the tracer checks their values at run time.
SATURATING = frozenset({"Relu", "Relu6", "ClipByValue", "Maximum", "Minimum"})

#: A softmax whose every row is one-hot to float precision (one probability is exactly 1.0)
#: passes (almost) no gradient back (nn_grad.py ``_SoftmaxGrad``: ``p * (g - sum(g * p))``):
#: checked at run time like SATURATING, but explained by its own rule (TM505, information).
SATURATING_SOFTMAX = frozenset({"Softmax"})

#: The ops whose values the recorder checks for saturation (``OpRecord.saturated``).
VALUE_CHECKED = SATURATING | SATURATING_SOFTMAX

#: Shape metadata: never a cut and never a path (a loss may divide by a size).
METADATA_OPS = frozenset({"Shape", "ShapeN", "Size", "Rank", "VariableShape", "BroadcastArgs",
                          "BroadcastGradientArgs", "ZerosLike", "OnesLike"})

#: Variable reads: input 0 is the resource handle (resource_variable_ops: _ReadGrad, _GatherGrad).
READ_OPS = frozenset({"ReadVariableOp", "ResourceGather", "ResourceGatherNd"})

#: Variable writes: input 0 is the handle, input 1 the value (absent for scatter-free ops).
WRITE_OPS = frozenset(
    {
        "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
        "ResourceScatterUpdate", "ResourceScatterAdd", "ResourceScatterSub",
        "ResourceScatterNdUpdate", "ResourceScatterNdAdd",
    }
)

#: The user-facing API of each plain write op.
WRITE_API = {
    "AssignVariableOp": "Variable.assign",
    "AssignAddVariableOp": "Variable.assign_add",
    "AssignSubVariableOp": "Variable.assign_sub",
}

def write_api(op: Any, labels: Mapping[tuple[str, str], str]) -> str:
    """Name a variable write (an ``OpRecord``) as the user wrote it.

    ``tf.Variable`` for a new variable's initial value (``labels``: ``Trace.api_labels``, the
    API the user called), else the write op's method (``Variable.assign``).
    """
    label = labels.get((op.api_module or "", op.api_function or ""))
    return "tf.Variable" if label == "tf.Variable" else WRITE_API.get(op.op_type, op.op_type)


#: tf.numpy_function as a graph op (inside a traced tf.function): Python code, registered
#: NotDifferentiable (tensorflow/python/ops/script_ops.py); eagerly it runs no op at all.
NUMPY_FUNCTION_OPS = frozenset({"PyFunc", "PyFuncStateless"})

#: Creates a variable's resource handle (its attrs carry ``shared_name``/``debug_name``).
CREATE_OPS = frozenset({"VarHandleOp"})

#: A variable's own ops: its creation, reads and writes.
VARIABLE_OPS = CREATE_OPS | READ_OPS | WRITE_OPS

#: Ops whose condition input (index 0) only selects between the other inputs: a gradient flows
#: to the selected values, never to the condition (array_grad.py / math_grad.py: _SelectGrad,
#: _SelectGradV2 return None for the condition).
SELECT_OPS = frozenset({"Select", "SelectV2"})


#: The module whose frame creates the op ``tf.custom_gradient`` records for the decorated
#: function (tensorflow/python/ops/custom_gradient.py: an ``Identity``/``IdentityN``).
CUSTOM_GRADIENT_MODULE = "tensorflow.python.ops.custom_gradient"


def is_function_call(op_type: str) -> bool:
    """Return True for the op that calls a ``tf.function`` (its body is another graph).

    Such an op is opaque to the op callback at run time; the analysis treats it as passing
    gradients (its body is analysed when it is traced, not here). Asked once per op recorded,
    so answers are kept per op type.
    """
    found = _FUNCTION_CALLS.get(op_type)
    if found is None:
        found = op_type.startswith(("__inference", "__forward", "__backward")) or op_type in {
            "PartitionedCall", "StatefulPartitionedCall"}
        if len(_FUNCTION_CALLS) < 4096:  # every traced function has its own op type
            _FUNCTION_CALLS[op_type] = found
    return found


_FUNCTION_CALLS: dict[str, bool] = {}


#: Inputs that only select, index or shape the output: a gradient never flows into them, by
#: design (a gather's indices, a select's condition, a reshape's shape...). A cut on a path that
#: reaches the loss only through such inputs is not a cut the user must fix. Input positions
#: follow each op's definition (tensorflow/core/ops/*.cc); their gradient functions return
#: None for these inputs (array_grad.py: _GatherV2Grad, _SelectGradV2, _ReshapeGrad, ...).
GATING_INPUTS: dict[str, frozenset[int]] = {
    name: frozenset(positions) for name, positions in {
        "Select": (0,), "SelectV2": (0,),
        "GatherV2": (1, 2), "Gather": (1,), "GatherNd": (1,),
        "ResourceGather": (1,), "ResourceGatherNd": (1,),
        "ScatterNd": (0, 2), "TensorScatterUpdate": (1,), "TensorScatterAdd": (1,),
        "TensorScatterSub": (1,), "TensorScatterMax": (1,), "TensorScatterMin": (1,),
        "OneHot": (0, 1), "SparseSoftmaxCrossEntropyWithLogits": (1,),
        "UnsortedSegmentSum": (1, 2), "UnsortedSegmentMax": (1, 2),
        "UnsortedSegmentMin": (1, 2), "UnsortedSegmentProd": (1, 2),
        "SegmentSum": (1,), "SegmentMean": (1,), "SegmentMax": (1,), "SegmentMin": (1,),
        "BroadcastTo": (1,), "Reshape": (1,), "Tile": (1,), "Fill": (0,),
        "Slice": (1, 2), "StridedSlice": (1, 2, 3), "Pad": (1,), "PadV2": (1,),
        "MirrorPad": (1,), "Transpose": (1,), "ExpandDims": (1,), "Roll": (1, 2),
        "Sum": (1,), "Mean": (1,), "Max": (1,), "Min": (1,), "Prod": (1,),
        "Cumsum": (1,), "Cumprod": (1,), "TopKV2": (1,), "SplitV": (1, 2), "Split": (0,),
        "If": (0,), "StatelessIf": (0,),  # tf.cond's condition (graphs.link_cond)
        "ResizeBilinear": (1,), "ResizeNearestNeighbor": (1,), "MatrixBandPart": (1, 2),
    }.items()
}

#: Comparisons and logical ops: a bool that gates (a mask, a condition), never a value a
#: gradient is expected through (math_grad.py registers them NotDifferentiable).
COMPARISON_OPS = frozenset({
    "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual", "ApproximateEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "IsNan", "IsInf", "IsFinite",
})


#: Ops whose output is zero wherever one factor input is zero, and whose gradient to each other
#: input is the output gradient times that factor (math_grad.py: _MulGrad, _MatMulGrad,
#: _BatchMatMulV2Grad, _EinsumGrad; nn_grad.py: _Conv2DGrad and kin): a zero factor gives the
#: other inputs a zero gradient.
MULTIPLYING = frozenset({
    "Mul", "MulNoNan", "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Einsum",
    "Conv2D", "Conv3D", "DepthwiseConv2dNative", "Conv2DBackpropInput",
})

#: Elementwise ops with f(0) = 0 (activations through the origin): a zero input, a zero output.
ZERO_AT_ZERO = frozenset({
    "Tanh", "Relu", "Relu6", "LeakyRelu", "Elu", "Selu", "Softsign", "Sin", "Sinh", "Asinh",
    "Atan", "Atanh", "Tan", "Erf", "Abs", "Square",
})

#: Sums: zero when every input is (a zero bias added to a zero product).
SUMS = frozenset({"Add", "AddV2", "AddN", "BiasAdd", "Sub"})

#: Ops whose output is zero when their (first) input is: a zero stays a zero through them.
ZERO_KEEPING = frozenset({
    "ReadVariableOp", "Identity", "IdentityN", "Cast", "Reshape", "Transpose", "ExpandDims",
    "Squeeze", "Neg", "BroadcastTo", "Tile", "StridedSlice", "Slice", "GatherV2",
})

#: Stateful random ops with no variable input: each run draws anew (random_ops.py). A zero one
#: of them made on one step may be gone on the next, as one a variable made may; the ops of a
#: ``tf.random.Generator`` read its state variable, and stateless ops repeat their seed's draw.
RANDOM_OPS = frozenset({
    "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal",
    "ParameterizedTruncatedNormal", "Multinomial", "RandomShuffle", "RandomGamma",
    "RandomPoisson", "RandomPoissonV2",
})
