"""procurement.coded: values in no one language, rendered in the reader's."""

from __future__ import annotations

from procurement.coded import by_language, coded, joined, names, render_value, verbatim
from procurement.rules.base import finding_params


def test_names_are_listed_once_in_the_readers_language() -> None:
    value = names(["A100", "H100", "A100", coded("power.redundancy.none")])
    assert render_value(value, "en") == "A100, H100, " + str(render_value(coded("power.redundancy.none"), "en"))
    assert str(render_value(value, "zh")).startswith("A100、H100、")


def test_joined_by_language_and_verbatim() -> None:
    assert render_value(joined([coded("vram.weights"), "6.51"], " "), "en") == "Weights 6.51"
    note = by_language({"zh": "中文", "en": "English"}, "other")
    assert [render_value(note, lang) for lang in ("zh", "en", "ru")] == ["中文", "English", "other"]
    assert render_value(verbatim("as is"), "zh") == "as is"


def test_a_findings_parameters_print_coded_values_in_chinese() -> None:
    """What waivers compare kept its value: a list of names is printed as join_names printed it in Chinese."""
    assert finding_params({"parts": names(["a 1", "b 2"]), "n": 3, "note": "prose"}) == (
        ("n", "3"), ("parts", "a 1、b 2"))
