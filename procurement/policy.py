"""Policy: the thresholds the rules use (PSU headroom, airflow, ratios…), shipped or from a user file."""

from __future__ import annotations

import itertools
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from catalog.yamlsource import Locator, YamlError, format_loc, locate, parse_yaml, read_yaml


class Policy(BaseModel):
    """Every threshold a rule compares against; each field's source is in resources/policy/default.yaml."""

    # strict: `true` is no number (lax pydantic read it as 1 %), nor is the string '20'; NaN and infinity refused
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    # power
    psu_headroom_pct: float = Field(20.0, ge=0, le=500)
    base_system_w: float = Field(150.0, ge=0, le=100_000)
    gpu_transient_factor: float = Field(3.0, ge=1, le=10)
    psu_peak_tolerance_pct: float = Field(200.0, ge=100, le=1000)
    dimm_w_fallback: float = Field(10.0, ge=0, le=1000)
    drive_w_fallback: float = Field(15.0, ge=0, le=1000)
    nic_w_fallback: float = Field(40.0, ge=0, le=1000)
    fan_power_pct: float = Field(15.0, ge=0, le=100)
    sxm_baseboard_overhead_pct: float = Field(30.0, ge=0, le=200)
    psu_redundancy_required: Literal["none", "n+1", "n+2", "n+3", "n+n"] = "n+1"
    continuous_load_pct: float = Field(80.0, gt=0, le=100)
    low_line_circuit_amps: float = Field(20.0, gt=0, le=1000)
    cord_amps: float = Field(16.0, gt=0, le=1000)
    office_receptacle_amps_low_line: float = Field(15.0, gt=0, le=1000)
    office_receptacle_amps: float = Field(10.0, gt=0, le=1000)
    # facility
    rack_units_usable: int = Field(42, ge=1, le=100)
    pdu_phases: Literal[1, 3] = 3
    # cooling
    airflow_basis: Literal["heat", "per_gpu"] = "heat"
    airflow_cfm_per_gpu: float = Field(500.0, ge=0, le=100_000)
    airflow_cfm_per_w_f: float = Field(3.16, gt=0, le=100)
    airflow_delta_t_f: float = Field(20.0, gt=0, le=200)
    liquid_cooling_rack_kw: float = Field(40.0, gt=0, le=10_000)
    max_open_air_gpus: int = Field(2, ge=0, le=100)
    # balance
    cpu_cores_per_gpu: float = Field(2.0, ge=0, le=1000)
    ram_to_vram_ratio: float = Field(2.0, ge=0, le=1000)
    min_fabric_gbps: float = Field(100.0, ge=0, le=100_000)
    fabric_nics_per_gpu: float = Field(1.0, ge=0, le=100)
    fabric_gbps_per_gpu: float = Field(400.0, ge=0, le=100_000)
    single_node_nic_gbps: float = Field(10.0, ge=0, le=100_000)
    # operations (handover: alert rules)
    gpu_temp_alert_c: float = Field(85.0, gt=0, le=150)
    # acceptance (verify): NVLink error counters per link since the driver loaded
    nvlink_replay_errors_max: int = Field(0, ge=0, le=10**12)
    nvlink_recovery_errors_max: int = Field(0, ge=0, le=10**12)
    nvlink_crc_errors_max: int = Field(0, ge=0, le=10**12)
    # acceptance (verify): NCCL bus bandwidth below this share of the expected figure fails
    nccl_busbw_floor_pct: float = Field(80.0, ge=0, le=100)
    # vram / sizing
    vram_margin_pct: float = Field(20.0, ge=0, le=500)
    activation_bytes_per_sbh: float = Field(34.0, ge=0, le=10_000)
    memory_tiers_gb: tuple[Annotated[float, Field(gt=0, le=100_000)], Annotated[float, Field(gt=0, le=100_000)],
                           Annotated[float, Field(gt=0, le=100_000)]] = (16.0, 32.0, 80.0)
    budget_tiers_cny: tuple[Annotated[float, Field(ge=0, le=10**12)], Annotated[float, Field(ge=0, le=10**12)]] = (
        50_000.0, 200_000.0)
    # budget
    vat_rate_pct: float = Field(13.0, ge=0, le=100)
    price_max_age_days: int = Field(180, ge=1, le=36_500)

    @field_validator("memory_tiers_gb", "budget_tiers_cny", mode="before")
    @classmethod
    def _list_is_tuple(cls, value: object) -> object:
        return tuple(value) if isinstance(value, list) else value  # YAML has lists; strict mode wants tuples

    @field_validator("pdu_phases", mode="before")
    @classmethod
    def _phases_not_bool(cls, value: object) -> object:
        if isinstance(value, bool):
            raise ValueError("true/false is not a number of phases (1 or 3)")
        return value

    @field_validator("memory_tiers_gb", "budget_tiers_cny")
    @classmethod
    def _tiers_rise(cls, tiers: tuple[float, ...]) -> tuple[float, ...]:
        if any(a >= b for a, b in itertools.pairwise(tiers)):
            shown = ", ".join(f"{x:g}" for x in tiers)
            raise ValueError(f"the tiers must rise from the first to the last, not {shown}")
        return tiers


class PolicyError(ValueError):
    pass


_ENTRY_KEYS = frozenset({"value", "source"})


def _values(data: dict[object, object], text: str = "", where: str | Path = "") -> dict[object, object]:
    """``name: value`` or ``name: {value: …, source: …}``: any other key in an entry is refused (a misspelt
    ``sorce`` or ``vaule`` was dropped silently)."""
    for k, v in data.items():
        if isinstance(v, dict) and "value" in v and not set(v) <= _ENTRY_KEYS:
            extra = sorted(str(x) for x in set(v) - _ENTRY_KEYS)
            raise PolicyError(f"{where}:{locate(text, (str(k), extra[0]))}: {format_loc((str(k), extra[0]))}: "
                              "unknown key (an entry has value and source)")
    return {k: (v["value"] if isinstance(v, dict) and "value" in v else v) for k, v in data.items()}


def _validate(data: dict[object, object], text: str, where: str | Path) -> Policy:
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        lines = Locator(text)  # composed once for all the errors
        raise PolicyError(
            "\n".join(
                f"{where}:{lines.line(tuple(e['loc'])[:1])}: {format_loc(tuple(e['loc']))}: "
                f"{'unknown threshold' if e['type'] == 'extra_forbidden' else e['msg']}"
                for e in exc.errors(include_url=False)
            )
        ) from None


def _parse(text: str, where: str | Path) -> Policy:
    try:
        data = parse_yaml(text, where)
    except YamlError as exc:
        raise PolicyError(str(exc)) from None
    if not isinstance(data, dict):
        raise PolicyError(f"{where}:1: expected a mapping of policy thresholds")
    return _validate(_values(data, text, where), text, where)


_POLICY_CLASS = frozenset({(__name__, "Policy")})


def default_policy() -> Policy:
    """The shipped policy, resources/policy/default.yaml. Validated once and then read from the precompiled
    catalog's cache (catalog/precompiled.py), keyed by the file's bytes, this module's source and the library
    versions: building the policy's validator pulled in pydantic's plugin loader and importlib.metadata, ~60 ms
    of the app's start (issue 25) for the same policy every time."""
    raw = (resources.files("resources") / "policy" / "default.yaml").read_bytes()
    from catalog import precompiled
    from catalog.yamlsource import cache_dir

    cache = cache_dir()
    key = _policy_key(raw)
    if cache is not None:
        stored = precompiled.load(cache, key, _POLICY_CLASS)
        if isinstance(stored, Policy):
            return stored
    policy = _parse(raw.decode("utf-8"), "resources/policy/default.yaml")
    if cache is not None:
        precompiled.store(cache, key, policy)
    return policy


def _policy_key(raw: bytes) -> str:
    import hashlib
    import sys

    import pydantic

    h = hashlib.sha256(b"gpu-procure default policy 1\0")
    h.update(f"{sys.version_info[:2]} pydantic {pydantic.VERSION}\0".encode())
    try:
        h.update(Path(__file__).read_bytes())
    except OSError:  # a frozen bundle holds no sources: it changes only with the executable
        st = Path(sys.executable).stat()
        h.update(f"{sys.executable} {st.st_size} {st.st_mtime_ns}".encode())
    h.update(raw)
    return "policy-" + h.hexdigest()


def load_policy(path: str | Path | None = None) -> Policy:
    """The shipped policy, with the values in ``path`` (a user's YAML) laid over it."""
    base = default_policy()
    if path is None:
        return base
    try:
        data, text = read_yaml(Path(path))
    except YamlError as exc:
        raise PolicyError(str(exc)) from None
    if data is None:
        return base
    if not isinstance(data, dict):
        raise PolicyError(f"{path}:1: expected a mapping of policy thresholds")
    merged: dict[object, object] = dict(base.model_dump().items())
    merged.update(_values(data, text, path))
    return _validate(merged, text, path)
