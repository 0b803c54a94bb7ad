"""The README's rule table is generated from the catalog and must match it."""

from pathlib import Path

from tapemagic.rules import markdown_table


def test_readme_rule_table_is_up_to_date() -> None:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = text.split("<!-- rules:begin -->\n", 1)[1].split("\n<!-- rules:end -->", 1)[0]
    assert table == markdown_table(), "regenerate with tapemagic.rules.markdown_table()"
