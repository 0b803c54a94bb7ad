"""The guarantees of the rule catalog (STYLE 4.5), TF-free."""

from __future__ import annotations

import ast
import json
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

import tapemagic
from tapemagic.report.model import CAUSES
from tapemagic.rules import (
    FAMILIES,
    explain,
    format_message,
    get_rule,
    load_catalog,
    placeholders,
)

# What the engine fills in: code -> (name, cause, severity, params, fix applicability).
EXPECTED = {
    "TM101": ("tape-not-watching", "not-watched", "error", ["variables", "tape_line"], "unsafe"),
    "TM102": ("unwatched-tensor", "not-watched", "error", ["variables"], "unsafe"),
    "TM103": ("outside-tape", "outside-tape", "error", ["api", "when", "variables"], "unsafe"),
    "TM104": ("not-connected", "not-connected", "error", ["variables", "target", "detail"],
              "display-only"),
    "TM105": ("keras-zero-mode-error", "not-connected", "warning", ["variables"], "display-only"),
    "TM106": ("unexplained-none", "unexplained", "warning", ["variables"], "display-only"),
    "TM107": ("non-trainable-source", "sources-mismatch", "error",
              ["variables", "tape_line", "detail"],
              "unsafe"),
    "TM108": ("failed-watch", "not-watched", "error", ["error", "what", "tape_line", "variables"],
              "unsafe"),
    "TM109": ("empty-sources", "sources-mismatch", "error", ["sources", "detail", "variables"],
              "unsafe"),
    "TM110": ("weights-never-trained", "sources-mismatch", "info", ["variables"],
              "display-only"),
    "TM112": ("variable-replaced", "not-watched", "error", ["name", "run", "variables"],
              "unsafe"),
    "TM111": ("stale-variable", "not-connected", "error", ["name", "every", "variables"],
              "unsafe"),
    "TM113": ("stale-trainable-list", "sources-mismatch", "error",
              ["layer", "step", "runs", "variables"], "display-only"),
    "TM114": ("untracked-variable", "sources-mismatch", "warning", ["variables", "layer", "held"],
              "display-only"),
    "TM115": ("layer-inside-lambda", "sources-mismatch", "warning",
              ["variables", "where"], "display-only"),
    "TM116": ("module-misses-keras-weights", "sources-mismatch", "warning",
              ["module", "module_type", "variables"], "display-only"),
    "TM117": ("frozen-before-own-step", "sources-mismatch", "warning",
              ["layer", "model", "line", "variables"], "display-only"),
    "TM118": ("weight-not-updated", "unexplained", "warning",
              ["variables", "steps", "line", "reason"],
              "display-only"),
    "TM119": ("look-alike-sources", "sources-mismatch", "error",
              ["target", "listed", "read", "variables"], "display-only"),
    "TM120": ("frozen-by-api", "sources-mismatch", "info",
              ["api", "effect", "model", "line", "variables"], "display-only"),
    "TM121": ("on-read-source", "not-watched", "error", ["tape_line", "variables"],
              "display-only"),
    "TM122": ("config-drops-argument", "sources-mismatch", "warning",
              ["layer_type", "arguments", "api", "layer", "model", "line", "variables"],
              "display-only"),
    "TM203": ("custom-gradient-none", "custom-gradient", "error", ["api", "variables"],
              "display-only"),
    "TM304": ("py-function-host-round-trip", "host-round-trip", "error",
              ["api", "function", "variables"], "unsafe"),
    "TM501": ("zero-gradient", "zero-at-runtime", "warning", ["api", "op", "reason", "variables"],
              "unsafe"),
    "TM502": ("vanishing-gradient", "zero-at-runtime", "info", ["largest", "variables"],
              "display-only"),
    "TM503": ("float16-underflow", "zero-at-runtime", "warning",
              ["policy", "target", "variables"],
              "display-only"),
    "TM504": ("frozen-python-zero", "zero-at-runtime", "warning", ["api", "effect", "variables"],
              "display-only"),
    "TM505": ("saturated-softmax", "zero-at-runtime", "info", ["api", "state", "log", "variables"],
              "display-only"),
    "TM506": ("bias-before-batchnorm", "zero-at-runtime", "info", ["norm", "how", "variables"],
              "display-only"),
    "TM201": (
        "non-differentiable-op",
        "non-differentiable-op",
        "error",
        ["api", "op", "reason", "variables"],
        "unsafe",
    ),
    "TM202": (
        "integer-dtype",
        "integer-dtype",
        "error",
        ["api", "op", "dtype", "variables"],
        "unsafe",
    ),
    "TM301": ("host-round-trip", "host-round-trip", "error", ["api", "variables"], "unsafe"),
    "TM302": ("numpy-function", "numpy-function", "error", ["variables"], "unsafe"),
    "TM303": (
        "python-control-flow",
        "python-control-flow",
        "warning",
        ["api", "variables"],
        "unsafe",
    ),
    "TM401": ("stop-gradient", "stop-gradient", "error", ["variables"], "unsafe"),
    "TM402": (
        "variable-assign",
        "variable-assign",
        "error",
        ["api", "variable", "variables"],
        "unsafe",
    ),
}
# Causes that need no rule yet: they are detected later or only annotate other findings.
OPTIONAL_CAUSES: set[str] = set()


def _raw() -> dict:
    return json.loads(
        resources.files("tapemagic.rules").joinpath("catalog.json").read_text("utf-8")
    )


def _schema() -> dict:
    text = resources.files("tapemagic.schemas").joinpath("catalog.schema.json").read_text("utf-8")
    return json.loads(text)


def test_schema_is_valid_and_catalog_matches_it():
    schema = _schema()
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft7Validator(schema).validate(_raw())


@pytest.mark.parametrize(
    "mutate",
    [
        lambda c: c["rules"][0].update(extra="x"),
        lambda c: c["rules"][0].update(code="TM601"),
        lambda c: c["rules"][0].update(name="Not_Kebab"),
        lambda c: c["rules"][0].update(message="ends with a period."),
        lambda c: c["rules"][0].update(cause="bogus"),
        lambda c: c["rules"][0].update(example_bad=None),  # only 'unexplained' rules may
        lambda c: c["rules"][0].update(example_good="%%gradcheck\nx = 1\n"),
        lambda c: c.update(catalog_version=2),
        lambda c: c["rules"][0].pop("fix_title"),
    ],
)
def test_schema_rejects_bad_catalogs(mutate):
    catalog = _raw()
    mutate(catalog)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(_schema()).validate(catalog)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def test_rules_are_exactly_the_expected_ones():
    catalog = load_catalog()
    assert catalog.catalog_version == 1
    assert catalog.codes == sorted(EXPECTED)
    for rule in catalog.rules:
        name, cause, severity, params, applicability = EXPECTED[rule.code]
        assert (rule.name, rule.cause, rule.severity) == (name, cause, severity), rule.code
        assert list(rule.params) == params, rule.code
        assert rule.fix_applicability == applicability, rule.code
        assert rule.status in ("stable", "preview")
        assert _version(rule.since) <= _version(tapemagic.__version__), rule.code


def test_codes_and_names_unique_and_sorted():
    rules = _raw()["rules"]
    codes = [r["code"] for r in rules]
    names = [r["name"] for r in rules]
    assert codes == sorted(codes)
    assert len(set(codes)) == len(codes)
    assert len(set(names)) == len(names)


def test_family_matches_hundreds_digit():
    for rule in load_catalog().rules:
        assert rule.family == FAMILIES[int(rule.code[2])], rule.code


def test_placeholders_equal_params():
    for rule in load_catalog().rules:
        found = placeholders(rule.message)
        assert sorted(set(found)) == sorted(rule.params), rule.code
        assert len(found) == len(set(found)), f"{rule.code}: placeholder used twice"


def test_placeholders_rejects_non_identifiers():
    with pytest.raises(ValueError):
        placeholders("{x.attr} is bad")
    with pytest.raises(ValueError):
        placeholders("{x!r} is bad")
    assert placeholders("`{api}` and {variables}") == ["api", "variables"]


def test_wording_rules():
    for rule in load_catalog().rules:
        assert rule.fix_title.strip(), rule.code
        assert not rule.message.endswith("."), rule.code
        # code in backticks; `variables` arrives pre-formatted as a backticked list
        assert "`" in rule.message or "{variables}" in rule.message, rule.code
        assert not rule.title.endswith("."), rule.code
        assert rule.why.strip() and rule.what.strip(), rule.code
        assert rule.references and all(r.url.startswith("https://") for r in rule.references)


def test_every_required_cause_has_a_rule():
    covered = {rule.cause for rule in load_catalog().rules}
    assert covered <= set(CAUSES)
    assert set(CAUSES) - OPTIONAL_CAUSES <= covered


def test_examples_are_plain_cells():
    for rule in load_catalog().rules:
        cells = [rule.example_good] + ([rule.example_bad] if rule.example_bad else [])
        for cell in cells:
            assert not cell.lstrip().startswith("%%"), rule.code
            assert "import tensorflow as tf" in cell, rule.code
            assert "tape.gradient(" in cell, rule.code
            ast.parse(cell)  # syntax only: running them needs TensorFlow
        if rule.example_bad is None:
            assert rule.cause == "unexplained" and rule.known_problems, rule.code
        else:
            assert rule.example_bad != rule.example_good, rule.code


def test_redirects_point_to_live_codes():
    catalog = load_catalog()
    for old, new in catalog.redirects.items():
        assert old not in catalog.codes and new in catalog.codes


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_explain_page(code):
    rule = get_rule(code)
    page = explain(code)
    assert page.splitlines()[0] == f"{code} {rule.name}: {rule.title}"
    for section in ("What it does", "Why is this bad", "Example", "Fix safety", "References"):
        assert f"\n{section}\n" in page, section
    if rule.example_bad is not None:
        assert "\nUse instead\n" in page
        assert rule.example_bad.splitlines()[-1].strip() in page
    assert rule.fix_applicability in page
    assert page == explain(code.lower())


def test_get_rule_accepts_names_and_case():
    assert get_rule("tm301") is get_rule("TM301") is get_rule("host-round-trip")


def test_unknown_code_is_a_helpful_key_error():
    with pytest.raises(KeyError) as info:
        get_rule("TM999")
    message = str(info.value)
    assert "TM999" in message and "TM101" in message and "TM402" in message
    with pytest.raises(KeyError):
        explain("TM999")


def test_format_message():
    text = format_message(
        "TM201",
        {
            "api": "tf.round",
            "op": "Round",
            "reason": "its registered gradient returns None",
            "variables": "`dense/kernel`, `dense/bias`",
        },
    )
    assert text == (
        "`tf.round` (op `Round`) cuts the gradient path from `dense/kernel`, `dense/bias`: "
        "its registered gradient returns None"
    )
    assert "{" not in format_message("TM104", {"variables": "`w`", "target": "loss", "detail": ""})


@pytest.mark.parametrize(
    "params",
    [{"variables": "`w`"}, {"api": "x", "variables": "`w`", "extra": "y"}, {}],
)
def test_format_message_rejects_wrong_params(params):
    with pytest.raises(ValueError, match="TM301"):
        format_message("TM301", params)


def test_every_catalog_rule_has_one_rule_module_and_back() -> None:
    from tapemagic.rules.base import registry

    modules = registry()
    assert sorted(modules) == sorted(load_catalog().codes)
    for code, module in modules.items():
        file = sys.modules[type(module).__module__].__file__ or ""
        assert Path(file).name.startswith(code.lower() + "_"), (code, file)
        assert Path(file).stem.removeprefix(code.lower() + "_").replace("_", "-") == \
            get_rule(code).name, f"{code}'s module is not named after its rule"


def test_every_cause_of_the_cut_analysis_is_claimed_by_a_rule() -> None:
    from tapemagic.rules.base import registry

    claimed = set().union(*(m.causes for m in registry().values()))
    assert set(CAUSES) - claimed <= OPTIONAL_CAUSES
