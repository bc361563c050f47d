"""Policy: the thresholds the rules use (PSU headroom, airflow, ratios…), shipped or from a user file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from catalog.yamlsource import YamlError, format_loc, locate, parse_yaml, read_yaml


class Policy(BaseModel):
    """Every threshold a rule compares against; each field's source is in resources/policy/default.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    psu_headroom_pct: float = 20.0
    vat_rate_pct: float = 13.0


class PolicyError(ValueError):
    pass


def _parse(text: str, where: str | Path) -> Policy:
    try:
        data = parse_yaml(text, where)
    except YamlError as exc:
        raise PolicyError(str(exc)) from None
    if not isinstance(data, dict):
        raise PolicyError(f"{where}:1: expected a mapping of policy thresholds")
    data = {k: (v["value"] if isinstance(v, dict) and "value" in v else v) for k, v in data.items()}
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise PolicyError("\n".join(
            f"{where}:{locate(text, tuple(e['loc']))}: {format_loc(tuple(e['loc']))}: "
            f"{'unknown threshold' if e['type'] == 'extra_forbidden' else e['msg']}"
            for e in exc.errors(include_url=False))) from None


def default_policy() -> Policy:
    text = (resources.files("resources") / "policy" / "default.yaml").read_text(encoding="utf-8")
    return _parse(text, "resources/policy/default.yaml")


def load_policy(path: str | Path | None = None) -> Policy:
    """The shipped policy, with the values in ``path`` (a user's YAML) laid over it."""
    base = default_policy()
    if path is None:
        return base
    try:
        data, text = read_yaml(Path(path))
    except YamlError as exc:
        raise PolicyError(str(exc)) from None
    if not isinstance(data, dict):
        raise PolicyError(f"{path}:1: expected a mapping of policy thresholds")
    merged = base.model_dump()
    merged.update({k: (v["value"] if isinstance(v, dict) and "value" in v else v) for k, v in data.items()})
    try:
        return Policy.model_validate(merged)
    except ValidationError as exc:
        raise PolicyError("\n".join(
            f"{path}:{locate(text, tuple(e['loc']))}: {format_loc(tuple(e['loc']))}: "
            f"{'unknown threshold' if e['type'] == 'extra_forbidden' else e['msg']}"
            for e in exc.errors(include_url=False))) from None
