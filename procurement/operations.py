"""The operations part of the handover: image lifecycle, host tuning, MIG, Kubernetes and framework settings.

One entry, ``operations_files``, gives every file by its path in the handover directory; the README says what
each is for and where each command and default comes from (docs/operations.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from catalog.loader import Catalog
from procurement.dockerfile import DOCKERIGNORE, dockerfile_for_plan, image_name, image_tags
from procurement.framework_settings import settings_markdown
from procurement.host_tuning import choices, trade_off, tuning_script
from procurement.kubernetes import kubernetes_files
from procurement.messages import Lang, register, t
from procurement.mig import create_script, mig_parted_config, plan_mig
from procurement.plan import Plan

# Where each lifecycle command comes from (docs/operations.md, "Image lifecycle").
SCAN = ("trivy image --severity HIGH,CRITICAL --exit-code 1 {ref}",
        "Trivy, container image scanning: https://trivy.dev/latest/docs/target/container_image/")
SCAN_ALT = ("docker scout cves {ref}", "Docker docs, docker scout cves: https://docs.docker.com/reference/cli/docker/scout/cves/")
REFRESH = ("docker build --pull --no-cache -t {new} .",
           "Docker docs, docker buildx build --pull / --no-cache: "
           "https://docs.docker.com/reference/cli/docker/buildx/build/")
PRUNE = ("docker image prune --all --filter until=720h && docker builder prune --filter until=720h",
         "Docker docs, Prune unused objects: https://docs.docker.com/engine/manage-resources/pruning/")

register({
    "ops.title": "Operations after delivery",
    "ops.intro": "Generated from the plan '{title}'. Each choice says whether it is the plan's own or the default.",
    "ops.image": "Image lifecycle",
    "ops.image.files": "image/Dockerfile is the plan's image; copy image/dockerignore beside it as .dockerignore.",
    "ops.image.tag": "Version tag {version}; the environment tags {envs} move to a version tag as it is promoted.",
    "ops.image.none": "The plan has no catalog image (step 4): no Dockerfile and no tags.",
    "ops.image.scan": "Scan for known vulnerabilities before promoting a tag (fails on HIGH or CRITICAL):",
    "ops.image.refresh": (
        "Refresh monthly, or when the scan fails: rebuild on the newest base with a new date tag, scan again, "
        "then move the tags:"
    ),
    "ops.image.prune": "Remove images and build cache unused for 30 days:",
    "ops.source": "Source: {source}",
    "ops.tuning": "Host tuning",
    "ops.tuning.run": (
        "host-tuning.sh applies these (--dry-run shows what it would do, --undo puts back what it changed):"
    ),
    "ops.tuning.row": "| {key} | {value} | {origin} | {trade_off} |",
    "ops.tuning.head": "| Setting | Value | From | Trade-off |",
    "ops.tuning.plan": "the plan",
    "ops.tuning.default": "default",
    "ops.tuning.ecc_off": "ECC is switched off because the plan asks for it. {warning}",
    "ops.tuning.clocks": "Application clocks are fixed because the plan asks for it. {warning}",
    "ops.tuning.verify": (
        "Once host-tuning.sh (and mig-create.sh) have run, verify as after the setup, so that a host left untuned "
        "fails TUNE-* and MIG-LAYOUT instead of warning: `gpu-procure verify --after-setup` on a node, "
        "`gpu-procure judge DIR --after-setup` on raw facts, `AFTER_SETUP=1` for deploy/slurm/verify.sh, "
        "`-e after_setup=true` for deploy/ansible/verify.yml, or step 5's \"Judge as after setup\" box."
    ),
    "ops.mig": "MIG",
    "ops.mig.layout": "{layout}. mig-create.sh creates it; mig-parted.yaml is the same layout for nvidia-mig-parted.",
    "ops.mig.problem": "The layout cannot be applied as it is: {problem}",
    "ops.k8s": "Kubernetes",
    "ops.k8s.files": (
        "kubernetes/ holds the GPU Operator values (or the device plugin's), the MIG config map, the node labels, "
        "the dcgm-exporter ServiceMonitor and a smoke-test pod."
    ),
    "ops.fw": "Framework settings",
})


def _section(title: str) -> list[str]:
    return ["", f"## {title}", ""]


def operations_readme(plan: Plan, catalog: Catalog, lang: Lang = "en", today: dt.date | None = None) -> str:
    out = [f"# {t('ops.title', lang)}", "", t("ops.intro", lang, title=" ".join((plan.title or "-").split()))]
    out += _section(t("ops.image", lang))
    tags = image_tags(plan, catalog, today)
    if dockerfile_for_plan(plan, catalog, lang, today=today) is None:
        out.append(t("ops.image.none", lang))
    else:
        out.append(t("ops.image.files", lang))
        # without the tag scheme (no framework or CUDA line known) the commands name the tag to fill in
        repository = tags.repository if tags else image_name(plan.title)
        ref = tags.ref() if tags else f"{repository}:TAG"
        if tags is not None:
            out += ["", t("ops.image.tag", lang, version=ref, envs=", ".join(tags.environments))]
        out += ["", t("ops.image.scan", lang), "", f"    {SCAN[0].format(ref=ref)}",
                f"    {SCAN_ALT[0].format(ref=ref)}", "", t("ops.source", lang, source=f"{SCAN[1]}; {SCAN_ALT[1]}"),
                "", t("ops.image.refresh", lang), "", f"    {REFRESH[0].format(new=repository + ':NEW-TAG')}",
                f"    docker tag {repository}:NEW-TAG {repository}:production", "",
                t("ops.source", lang, source=REFRESH[1]), "", t("ops.image.prune", lang), "", f"    {PRUNE[0]}", "",
                t("ops.source", lang, source=PRUNE[1])]
    out += _section(t("ops.tuning", lang))
    out += [t("ops.tuning.run", lang), "", t("ops.tuning.head", lang), "|---|---|---|---|"]
    for c in choices(plan).values():
        out.append(t("ops.tuning.row", lang, key=c.key, value=c.value,
                     origin=t("ops.tuning.plan" if c.from_plan else "ops.tuning.default", lang),
                     trade_off=f"{trade_off(c.key, lang)} ({c.source})"))
    host = plan.operations.host
    if host.ecc == "off":
        out += ["", t("ops.tuning.ecc_off", lang, warning=t("tuning.warning.ecc", lang))]
    if host.application_clocks is not None:
        out += ["", t("ops.tuning.clocks", lang, warning=t("tuning.warning.clocks", lang))]
    out += ["", t("ops.tuning.verify", lang)]
    mig, problems = plan_mig(plan, lang)
    if mig is not None or problems:
        out += _section(t("ops.mig", lang))
        if mig is not None:
            out.append(t("ops.mig.layout", lang, layout=mig.describe(lang)))
        out += [t("ops.mig.problem", lang, problem=p) for p in problems]
    if plan.operations.orchestrator == "kubernetes":
        out += [*_section(t("ops.k8s", lang)), t("ops.k8s.files", lang)]
    out += [*_section(t("ops.fw", lang)), settings_markdown(plan, catalog, lang).rstrip("\n")]
    return "\n".join(out) + "\n"


def operations_files(plan: Plan, catalog: Catalog, nodes: Sequence[str], lang: Lang = "en",
                     today: dt.date | None = None) -> dict[str, str]:
    """Every operations file of the handover by its path (operations/…, kubernetes/…)."""
    files = {"operations/README.md": operations_readme(plan, catalog, lang, today),
             "operations/host-tuning.sh": tuning_script(plan)}
    dockerfile = dockerfile_for_plan(plan, catalog, lang, today=today)
    if dockerfile is not None:
        files["operations/image/Dockerfile"] = dockerfile
        files["operations/image/dockerignore"] = DOCKERIGNORE
    mig, _ = plan_mig(plan, lang)
    if mig is not None:
        files["operations/mig-create.sh"] = create_script(mig)
        files["operations/mig-parted.yaml"] = mig_parted_config(mig)
    files.update(kubernetes_files(plan, nodes, mig))
    return files


__all__ = ["operations_files", "operations_readme"]
