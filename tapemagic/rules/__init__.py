"""The rule catalog: load ``catalog.json`` once, look rules up, format and explain them.

TF-free. This module's single job is to turn the catalog data file (the only place rule wording
lives) into frozen :class:`Rule` objects, to fill a rule's message template with the parameters
a detector found, and to render the ``%gradcheck --explain CODE`` page. Detectors live elsewhere.
"""

from __future__ import annotations

import functools
import json
import string
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "FAMILIES",
    "Catalog",
    "Reference",
    "Rule",
    "explain",
    "format_message",
    "get_rule",
    "load_catalog",
    "markdown_table",
    "placeholders",
]

Status = Literal["stable", "preview"]
Family = Literal[
    "tape-scope", "non-differentiable-op", "host-round-trip", "explicit-cut", "numerics"
]

#: Family of each hundreds digit of a rule code.
FAMILIES: dict[int, str] = {
    1: "tape-scope",
    2: "non-differentiable-op",
    3: "host-round-trip",
    4: "explicit-cut",
    5: "numerics",
}

_APPLICABILITY_TEXT = {
    "safe": (
        "This fix is safe: it keeps what the code computes, and the editor may apply it directly."
    ),
    "unsafe": (
        "This fix is unsafe: it changes what the code computes (which values are recorded or"
        " trained), so it is offered as a suggestion and never applied without a click."
    ),
    "display-only": (
        "This fix is display-only: the right change depends on what the code means, so tapemagic"
        " describes it and leaves the edit to you."
    ),
}
_WIDTH = 88


@dataclass(frozen=True, slots=True)
class Reference:
    """A documentation link: a title and an https URL."""

    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Rule:
    """One catalog entry; see ``tapemagic/schemas/catalog.schema.json`` for each field."""

    code: str
    name: str
    family: Family
    cause: str
    severity: Literal["error", "warning", "info"]
    status: Status
    since: str
    title: str
    message: str
    params: tuple[str, ...]
    fix_title: str
    fix_applicability: Literal["safe", "unsafe", "display-only"]
    what: str
    why: str
    example_bad: str | None
    example_good: str
    references: tuple[Reference, ...]
    known_problems: str | None = None
    #: The static checker's wording (a possibility, "may"), when the rule has a static matcher.
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Catalog:
    """The loaded catalog: its version, the rules in code order, and code redirects."""

    catalog_version: int
    rules: tuple[Rule, ...]
    redirects: Mapping[str, str]

    @property
    def codes(self) -> list[str]:
        """Return the rule codes, in catalog order."""
        return [r.code for r in self.rules]


def _read(package: str, name: str) -> Any:
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """Load ``tapemagic/rules/catalog.json`` (once per process).

    The catalog ships inside the package, so it is trusted here: ``catalog.schema.json`` is
    checked by the tests (tests/test_catalog.py), not on every start-up, where jsonschema alone
    costs seconds (its format checkers compile a grammar when ``rfc3987-syntax`` is installed).

    Returns
    -------
    Catalog
        The rules as frozen dataclasses, in the file's (code) order.

    Raises
    ------
    ValueError
        If two rules share a code or a name.
    """
    raw = _read("tapemagic.rules", "catalog.json")
    rules = tuple(
        Rule(
            **{
                **r,
                "params": tuple(r["params"]),
                "references": tuple(Reference(**ref) for ref in r["references"]),
            }
        )
        for r in raw["rules"]
    )
    for attr in ("code", "name"):
        values = [getattr(r, attr) for r in rules]
        dupes = sorted({v for v in values if values.count(v) > 1})
        if dupes:
            raise ValueError(f"tapemagic catalog: duplicate rule {attr}s {dupes}")
    return Catalog(raw["catalog_version"], rules, MappingProxyType(dict(raw["redirects"])))


def get_rule(code: str) -> Rule:
    """Return the rule for ``code`` (``TM301``), following redirects; names also work.

    Parameters
    ----------
    code : str
        A rule code, case-insensitive (``TM301``, ``tm301``), an old code listed in the
        catalog's ``redirects``, or a rule name (``host-round-trip``).

    Raises
    ------
    KeyError
        If no rule has this code or name; the message lists the known codes.
    """
    catalog = load_catalog()
    key = code.strip()
    key = catalog.redirects.get(key.upper(), key)
    for rule in catalog.rules:
        if key.upper() == rule.code or key.lower() == rule.name:
            return rule
    known = ", ".join(catalog.codes)
    raise KeyError(
        f"unknown tapemagic rule {code!r}; known rules are {known} "
        "(a newer tapemagic may know it: `pip install -U tapemagic`)"
    )


def placeholders(template: str) -> list[str]:
    """Return the ``{identifier}`` placeholder names of ``template``, in order of appearance.

    Raises
    ------
    ValueError
        If the template contains a placeholder that is not a bare identifier (a format spec,
        a conversion, an attribute or index access), or an unbalanced brace.
    """
    names: list[str] = []
    for _text, field, spec, conversion in string.Formatter().parse(template):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{field}}} in {template!r} is not a bare identifier")
        names.append(field)
    return names


def format_message(code: str, params: Mapping[str, object]) -> str:
    """Fill rule ``code``'s message template with ``params``.

    Parameters
    ----------
    code : str
        A rule code (see :func:`get_rule`).
    params : Mapping[str, object]
        One value per name in the rule's ``params``; values are formatted with ``str``.
        ``variables`` is expected pre-formatted (a backticked list).

    Raises
    ------
    KeyError
        If the code is unknown.
    ValueError
        If ``params`` misses a parameter of the rule or has one the rule does not declare.
    """
    rule = get_rule(code)
    missing = [p for p in rule.params if p not in params]
    extra = sorted(set(params) - set(rule.params))
    if missing or extra:
        raise ValueError(
            f"{rule.code} {rule.name} takes params {list(rule.params)}; "
            f"missing {missing}, unexpected {extra}"
        )
    return rule.message.format_map({k: str(v) for k, v in params.items()})


def explain(code: str) -> str:
    """Return the plain-text documentation page of a rule, for ``%gradcheck --explain CODE``.

    The page follows ruff's rule documentation: a title line ``TM301 host-round-trip: <title>``,
    then *What it does*, *Why is this bad*, *Known problems* (when there are any), *Example*,
    *Use instead* (both only when the rule has an example), *Fix safety* and *References*.

    Raises
    ------
    KeyError
        If the code is unknown.
    """
    rule = get_rule(code)
    out = [
        f"{rule.code} {rule.name}: {rule.title}",
        "",
        f"Family: {rule.family}. Cause: {rule.cause}. Severity: {rule.severity}. "
        f"Status: {rule.status} (since {rule.since}).",
        f"Message: {rule.message}",
    ]

    def section(title: str, body: str) -> None:
        out.extend(["", title, body])

    section("What it does", _fill(rule.what))
    section("Why is this bad", _fill(rule.why))
    if rule.known_problems:
        section("Known problems", _fill(rule.known_problems))
    if rule.example_bad is None:
        section("Example", _fill("No example (see Known problems)."))
    else:
        section("Example", _code(rule.example_bad))
        section("Use instead", _code(rule.example_good))
    section(
        "Fix safety",
        _fill(f"Fix: {rule.fix_title}.")
        + "\n"
        + _fill(_APPLICABILITY_TEXT[rule.fix_applicability]),
    )
    section("References", "\n".join(f"  - {r.title}: {r.url}" for r in rule.references))
    return "\n".join(out) + "\n"


def _fill(text: str) -> str:
    return textwrap.fill(text, width=_WIDTH, initial_indent="  ", subsequent_indent="  ")


def _code(cell: str) -> str:
    return textwrap.indent(cell.rstrip("\n"), "    ")


def markdown_table() -> str:
    """Return the README's rule table (code, name, cause, severity, fix safety) as Markdown."""
    rows = ["| code | name | cause | severity | fix |", "| --- | --- | --- | --- | --- |"]
    for rule in load_catalog().rules:
        rows.append(f"| {rule.code} | `{rule.name}` | {rule.cause} | {rule.severity} | "
                    f"{rule.fix_applicability} |")
    return "\n".join(rows)
