"""MIG planner: the profiles each GPU model offers, a layout for the plan, its commands, and the check of a node.

The profile tables are NVIDIA's MIG User Guide, "Supported MIG Profiles"
(https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html), with the profile ids,
instance counts and placements as real `nvidia-smi mig -lgip` / `-lgipp` / `-lgi` captures print them
(tests/fixtures/nvidia-smi/mig/README.md): an A100 40GB, an A30 and an H100 80GB. A GPU instance occupies
consecutive memory slices (eight on GA100/GH100/GB100, four on the A30) from one of its profile's allowed
start slots, and the compute slices ("Ng") of all instances add up to at most the GPU's seven (A30: four).
"""

from __future__ import annotations

import math
import re
import shlex
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import yaml

from procurement.coded import coded, render_value
from procurement.messages import Lang, register, t
from procurement.plan import Plan

GUIDE = "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html"


@dataclass(frozen=True)
class MigProfile:
    """One GPU instance profile as `nvidia-smi mig -lgip` lists it."""

    name: str
    """'3g.40gb' (nvidia-smi prints 'MIG 3g.40gb')."""
    profile_id: int
    compute_slices: int
    memory_slices: int
    max_instances: int
    starts: tuple[int, ...]
    """Memory slices an instance may start at (`nvidia-smi mig -lgipp`)."""

    @property
    def memory_gb(self) -> int:
        return int(re.sub(r"\D", "", self.name.split(".")[1]))


@dataclass(frozen=True)
class MigGeometry:
    """The profiles of one GPU model and the slices they share."""

    compute_slices: int
    memory_slices: int
    profiles: tuple[MigProfile, ...]
    source: str

    def profile(self, name: str) -> MigProfile | None:
        return next((p for p in self.profiles if p.name == name), None)


def _ga100_like(mem_gb: tuple[int, int, int, int, int, int], source: str, media: bool = True) -> MigGeometry:
    """Seven compute and eight memory slices (A100, H100, H200, B200): the names differ only in memory."""
    one, one_double, two, three, four, seven = mem_gb
    profiles = [
        MigProfile(f"1g.{one}gb", 19, 1, 1, 7, (0, 1, 2, 3, 4, 5, 6)),
        MigProfile(f"1g.{one_double}gb", 15, 1, 2, 4, (0, 2, 4, 6)),
        MigProfile(f"2g.{two}gb", 14, 2, 2, 3, (0, 2, 4)),
        MigProfile(f"3g.{three}gb", 9, 3, 4, 2, (0, 4)),
        MigProfile(f"4g.{four}gb", 5, 4, 4, 1, (0,)),
        MigProfile(f"7g.{seven}gb", 0, 7, 8, 1, (0,)),
    ]
    if media:
        profiles.insert(1, MigProfile(f"1g.{one}gb+me", 20, 1, 1, 1, (0, 1, 2, 3, 4, 5, 6)))
    return MigGeometry(7, 8, tuple(profiles), source)


_A100_40 = _ga100_like((5, 10, 10, 20, 20, 40), f"{GUIDE} (A100 MIG Profiles); ids, counts: "
                       "tests/fixtures/nvidia-smi/mig/seansiddens_a100-sxm4-40gb_450.80.02_lgip.txt")
_80GB = _ga100_like((10, 20, 20, 40, 40, 80), f"{GUIDE} (A100 MIG Profiles: the 80GB names; H100 MIG Profiles); "
                    "names seen in tests/fixtures/nvidia-smi/utkuozdemir_h100-mig_590.48.01_list-L.txt")
_94GB = _ga100_like((12, 24, 24, 47, 47, 94), f"{GUIDE} (H100 MIG Profiles, H100 94GB)")
_141GB = _ga100_like((18, 35, 35, 71, 71, 141), f"{GUIDE} (H200 MIG Profiles)")
_B200 = _ga100_like((23, 45, 45, 90, 90, 180), f"{GUIDE} (B200 MIG Profiles)")
_A30 = MigGeometry(4, 4, (
    MigProfile("1g.6gb", 14, 1, 1, 4, (0, 1, 2, 3)),
    MigProfile("1g.6gb+me", 21, 1, 1, 1, (0, 1, 2, 3)),
    MigProfile("2g.12gb", 5, 2, 2, 2, (0, 2)),
    MigProfile("4g.24gb", 0, 4, 4, 1, (0,)),
), f"{GUIDE} (A30 MIG Profiles); ids, counts, placements: "
   "tests/fixtures/nvidia-smi/mig/summer-lo_a30_lgip-lgipp-lgi.txt")

GEOMETRIES: dict[str, MigGeometry] = {
    "a30": _A30,
    "a100-pcie-40gb": _A100_40, "a100-sxm4-40gb": _A100_40,
    "a100-pcie-80gb": _80GB, "a100-sxm4-80gb": _80GB, "h100-pcie-80gb": _80GB, "h100-sxm5-80gb": _80GB,
    "h100-nvl-94gb": _94GB,
    "h200-sxm-141gb": _141GB, "h200-nvl-141gb": _141GB,
    "b200": _B200,
}
"""Catalog GPU id -> its MIG profiles. A MIG-capable GPU missing here (H20, A800, H800: not in the guide's
tables, or not MIG-capable by any public source) gets no layout: read `nvidia-smi mig -lgip` on the node."""

register({
    "mig.no_table": (
        "No MIG profile table for '{gpu}' in the repository (NVIDIA's MIG User Guide does not list it): "
        "read `nvidia-smi mig -lgip` on the node and enter the layout by hand"
    ),
    "mig.unknown_profile": "'{profile}' is not a MIG profile of '{gpu}' (it offers {offered})",
    "mig.too_many": "{count} × {profile} on one GPU: at most {max} fit",
    "mig.no_fit": (
        "The instances {layout} do not fit one GPU together: {compute} of {total} compute slices, or no free "
        "memory slices for every instance's allowed placement"
    ),
    "mig.too_many_users": (
        "{users} users on {gpus} × GPU need {per_gpu} instances per GPU: at most {max} fit, so some users share"
    ),
    "mig.layout": "{gpus} × GPU, each split into {layout} ({compute}/{total} compute slices used)",
    "mig.check.pass": "GPU {gpu}: the MIG instances found are the planned ones ({found})",
    "mig.check.fail": "GPU {gpu}: found {found}, planned {planned}",
    "mig.check.missing_gpu": "GPU {gpu}: no MIG instances found, planned {planned}",
    "mig.check.unknown": "The MIG instances could not be read: {why}",
    "mig.check.not_planned": "The plan has no MIG layout; found {found}",
    "mig.check.none": "(none)",
})


def geometry(gpu_id: str | None) -> MigGeometry | None:
    return GEOMETRIES.get(gpu_id or "")


def fits(geo: MigGeometry, names: Sequence[str]) -> list[tuple[str, int]] | None:
    """A placement (profile name, start slice) of every instance on one GPU, or None when they cannot share it."""
    profiles = [geo.profile(n) for n in names]
    if any(p is None for p in profiles):
        return None
    chosen = sorted((p for p in profiles if p is not None), key=lambda p: (-p.memory_slices, -p.compute_slices))
    if sum(p.compute_slices for p in chosen) > geo.compute_slices:
        return None
    for name, n in Counter(names).items():
        prof = geo.profile(name)
        if prof is not None and n > prof.max_instances:
            return None
    free = [True] * geo.memory_slices

    def place(i: int) -> list[tuple[str, int]] | None:
        if i == len(chosen):
            return []
        p = chosen[i]
        for start in p.starts:
            span = range(start, start + p.memory_slices)
            if span.stop <= len(free) and all(free[s] for s in span):
                for s in span:
                    free[s] = False
                rest = place(i + 1)
                if rest is not None:
                    return [(p.name, start), *rest]
                for s in span:
                    free[s] = True
        return None

    return place(0)


@dataclass(frozen=True)
class MigPlan:
    """The planned MIG instances: the same layout on every GPU of the node."""

    gpu_id: str
    gpu_count: int
    layout: tuple[str, ...]
    """Profile names of one GPU's instances, largest first."""
    geometry: MigGeometry
    problems: tuple[str, ...] = ()
    """Why the layout cannot be applied as it is (empty: it fits)."""

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def strategy(self) -> str:
        """The GPU Operator / device plugin's MIG strategy: 'single' when every instance has one profile."""
        return "single" if len(set(self.layout)) == 1 else "mixed"

    def describe(self, lang: Lang) -> str:
        used = sum(p.compute_slices for n in self.layout if (p := self.geometry.profile(n)))
        return t("mig.layout", lang, gpus=self.gpu_count, layout=" + ".join(self.layout), compute=used,
                 total=self.geometry.compute_slices)


def _largest_first(geo: MigGeometry, names: Iterable[str]) -> tuple[str, ...]:
    def key(n: str) -> tuple[int, int, str]:
        p = geo.profile(n)
        return (-(p.memory_slices if p else 0), -(p.compute_slices if p else 0), n)
    return tuple(sorted(names, key=key))


def proposed_layout(geo: MigGeometry, per_gpu: int) -> tuple[str, ...]:
    """``per_gpu`` equal instances, each as large as the GPU allows (no media extensions)."""
    plain = [p for p in geo.profiles if not p.name.endswith("+me")]
    for p in sorted(plain, key=lambda p: (-p.compute_slices, -p.memory_slices)):
        names = [p.name] * per_gpu
        if p.max_instances >= per_gpu and fits(geo, names) is not None:
            return tuple(names)
    smallest = min(plain, key=lambda p: (p.compute_slices, p.memory_slices))
    return tuple([smallest.name] * smallest.max_instances)


def plan_mig(plan: Plan, lang: Lang = "en") -> tuple[MigPlan | None, list[str]]:
    """The plan's MIG layout (its own, or one instance per user spread over its GPUs) and what is wrong with it.

    None when the plan neither asks for MIG nor has a layout, or when the GPU has no profile table here.
    """
    layout = plan.operations.mig_layout
    if not plan.requirements.needs_mig and not layout:
        return None, []
    gpu_id = plan.gpu.model or ""
    geo = geometry(gpu_id)
    if geo is None:
        return None, [t("mig.no_table", lang, gpu=gpu_id or "?")]
    count = max(plan.gpu.count, 1)
    problems: list[str] = []
    if layout:
        names = list(layout)
        offered = ", ".join(p.name for p in geo.profiles)
        for name in dict.fromkeys(names):
            prof = geo.profile(name)
            if prof is None:
                problems.append(t("mig.unknown_profile", lang, profile=name, gpu=gpu_id, offered=offered))
            elif names.count(name) > prof.max_instances:
                problems.append(t("mig.too_many", lang, count=names.count(name), profile=name,
                                  max=prof.max_instances))
        if not problems and fits(geo, names) is None:
            compute = sum(p.compute_slices for n in names if (p := geo.profile(n)))
            problems.append(t("mig.no_fit", lang, layout=" + ".join(names), compute=compute,
                              total=geo.compute_slices))
        chosen = _largest_first(geo, names)
    else:
        users = plan.requirements.concurrent_users or count
        per_gpu = math.ceil(users / count)
        chosen = proposed_layout(geo, per_gpu)
        if len(chosen) < per_gpu:
            problems.append(t("mig.too_many_users", lang, users=users, gpus=count, per_gpu=per_gpu,
                              max=len(chosen)))
    mig = MigPlan(gpu_id, count, chosen, geo, tuple(problems) if layout else ())
    return mig, problems


# ---------------------------------------------------------------- what the node is told


def create_script(mig: MigPlan) -> str:
    """A bash script that enables MIG and creates the planned instances on every GPU (with --dry-run)."""
    ids = ",".join(str(p.profile_id) for n in mig.layout if (p := mig.geometry.profile(n)))
    lines = [
        "#!/bin/bash",
        f"# gpu-procure: MIG layout {' + '.join(mig.layout)} on each of {mig.gpu_count} GPU(s) ({mig.gpu_id})",
        "# Profiles and ids: NVIDIA MIG User Guide, Supported MIG Profiles; check with `nvidia-smi mig -lgip`.",
        "# Run as root with no GPU process running:  bash mig-create.sh [--dry-run]",
        "set -euo pipefail",
        'DRY=0; [ "${1:-}" = "--dry-run" ] && DRY=1',
        'run() { echo "+ $*"; if [ "$DRY" = 0 ]; then "$@"; fi; }',
        f"for gpu in $(seq 0 {mig.gpu_count - 1}); do",
        '  run nvidia-smi -i "$gpu" -mig 1',
        "  # remove what an earlier layout left (compute instances first), then create the planned ones",
        '  run nvidia-smi mig -i "$gpu" -dci || true',
        '  run nvidia-smi mig -i "$gpu" -dgi || true',
        f'  run nvidia-smi mig -i "$gpu" -cgi {shlex.quote(ids)} -C',
        "done",
        "run nvidia-smi mig -lgi",
        "",
    ]
    return "\n".join(lines)


def mig_parted_config(mig: MigPlan, name: str = "gpu-procure") -> str:
    """nvidia-mig-parted's config file (version v1): the planned layout under ``name`` and all-disabled."""
    doc = {
        "version": "v1",
        "mig-configs": {
            "all-disabled": [{"devices": "all", "mig-enabled": False}],
            name: [{"devices": "all", "mig-enabled": True, "mig-devices": dict(Counter(mig.layout))}],
        },
    }
    head = (f"# gpu-procure: {' + '.join(mig.layout)} per GPU ({mig.gpu_id}); apply with\n"
            f"#   nvidia-mig-parted apply -f config.yaml -c {name}\n"
            "# or, under the GPU Operator, label the node nvidia.com/mig.config=" + name + "\n")
    return head + yaml.safe_dump(doc, sort_keys=False)


# ---------------------------------------------------------------- what the node has


_LGI_ROW = re.compile(r"^\|\s+(\d+)\s+MIG\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+):(\d+)\s*\|")
_L_GPU = re.compile(r"^GPU\s+(\d+):")
_L_MIG = re.compile(r"^\s+MIG\s+(\S+)\s+Device\s+\d+:")


class MigReadError(ValueError):
    """The output is not a listing of MIG instances (an error, a different table, nothing)."""


def parse_instances(text: str | None) -> dict[int, list[str]]:
    """GPU index -> profile names of its GPU instances, from `nvidia-smi mig -lgi` or `nvidia-smi -L`.

    A GPU whose MIG mode is on but that has no instance is absent; so is every GPU of "No GPU instances found".
    """
    if text is None or not text.strip():
        raise MigReadError("no output")
    found: dict[int, list[str]] = {}
    if "| GPU instances:" in text:
        for line in text.splitlines():
            m = _LGI_ROW.match(line.strip())
            if m:
                found.setdefault(int(m.group(1)), []).append(m.group(2))
        return found
    if re.search(r"No (GPU instances|MIG-enabled devices) found", text):
        return {}
    gpu: int | None = None
    seen_gpu = False
    for line in text.splitlines():
        if m := _L_GPU.match(line):
            gpu, seen_gpu = int(m.group(1)), True
        elif (m := _L_MIG.match(line)) and gpu is not None:
            found.setdefault(gpu, []).append(m.group(1))
    if not seen_gpu:
        raise MigReadError(" ".join(text.split())[:200])
    return found


@dataclass(frozen=True)
class MigCheck:
    status: str
    """pass / fail / unknown."""
    message: str
    code: str = ""
    """The message's code (procurement.messages) and its parameters: a report stores these, not the text."""
    params: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


def _mig_check(status: str, lang: Lang, code: str, **params: object) -> MigCheck:
    return MigCheck(status, t(code, lang, **{k: render_value(v, lang) for k, v in params.items()}), code, params)


def check_instances(mig: MigPlan | None, text: str | None, lang: Lang = "en") -> list[MigCheck]:
    """The MIG instances found on each GPU against the planned layout (unknown when they cannot be read)."""
    none = coded("mig.check.none")
    try:
        found = parse_instances(text)
    except MigReadError as exc:
        return [_mig_check("unknown", lang, "mig.check.unknown", why=str(exc))]
    if mig is None:
        listed: object = "; ".join(f"GPU {g}: {' + '.join(n)}" for g, n in sorted(found.items())) or none
        return [_mig_check("pass" if not found else "fail", lang, "mig.check.not_planned", found=listed)]
    planned = Counter(mig.layout)
    out: list[MigCheck] = []
    for gpu in range(mig.gpu_count):
        have = Counter(found.get(gpu, []))
        shown: object = " + ".join(_largest_first(mig.geometry, have.elements())) or none
        want = " + ".join(mig.layout)
        if not have:
            out.append(_mig_check("fail", lang, "mig.check.missing_gpu", gpu=gpu, planned=want))
        elif have == planned:
            out.append(_mig_check("pass", lang, "mig.check.pass", gpu=gpu, found=shown))
        else:
            out.append(_mig_check("fail", lang, "mig.check.fail", gpu=gpu, found=shown, planned=want))
    return out


def mig_summary(plan: Plan, lang: Lang) -> str:
    """One line for step 2: the planned MIG layout, or why there is none ('' when the plan asks for no MIG)."""
    mig, problems = plan_mig(plan, lang)
    if problems:
        return problems[0]
    return mig.describe(lang) if mig is not None else ""
