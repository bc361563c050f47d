"""`gpu-procure deploy-files DIR`: write the shipped cluster files (Slurm batch script, Ansible playbook and
role) into DIR, for an installation that has no checkout of the repository (pip, a distribution package)."""

from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path

from procurement.exit_status import ExitStatus
from procurement.messages import default_lang, register, t
from procurement.safe_io import write_tree

register({
    "deploy_files.written": "gpu-procure deploy-files: {n} files in {path}",
    "deploy_files.next": (
        "next: gpu-procure probe-bundle {path}/ansible/files (Ansible) or probe-bundle a shared directory (Slurm); "
        "docs/probe.md, \"Clusters\""
    ),
    "deploy_files.missing": "gpu-procure deploy-files: this installation has no deploy files ({path})",
    "deploy_files.error": "gpu-procure deploy-files: {path}: {error}",
})

EXECUTABLE = (".sbatch", ".sh")


def source_dir() -> Path:
    """The deploy files of this installation: package data in a wheel (gpu_procure/deploy, copied there by
    setup.py's build step), the repository's deploy/ in a checkout or an editable install."""
    import importlib.util

    spec = importlib.util.find_spec("gpu_procure")  # found, not imported (it imports procurement)
    if spec is not None and spec.origin:
        packaged = Path(spec.origin).resolve().parent / "deploy"
        if packaged.is_dir():
            return packaged
    return Path(__file__).resolve().parents[2] / "deploy"


def deploy_files(root: Path) -> list[tuple[str, bytes]]:
    """(relative path, content) of every shipped deploy file below ``root``, in a stable order."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and "__pycache__" not in rel.parts and not rel.name.startswith(".") \
                and rel.parts[0] in ("slurm", "ansible"):
            out.append((rel.as_posix(), path.read_bytes()))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory", type=Path, metavar="DIR", help="where to write slurm/ and ansible/ (new or empty)")
    p.add_argument("--force", action="store_true", help="write into a directory that is not empty")


def run(args: argparse.Namespace) -> int:
    """0 written, 2 nothing to write or DIR not writable (not empty without --force)."""
    lang = default_lang()
    root = source_dir()
    files = deploy_files(root) if root.is_dir() else []
    if not files:
        print(t("deploy_files.missing", lang, path=root), file=sys.stderr)
        return ExitStatus.UNUSABLE
    directory: Path = args.directory
    try:
        if directory.exists() and any(directory.iterdir()) and not args.force:
            raise FileExistsError(errno.EEXIST, "not empty (--force writes into it)")
        write_tree(directory, files)
        for rel, _ in files:
            if rel.endswith(EXECUTABLE):
                (directory / rel).chmod(0o755)
    except OSError as exc:
        print(t("deploy_files.error", lang, path=directory, error=exc.strerror or exc), file=sys.stderr)
        return ExitStatus.UNUSABLE
    print(t("deploy_files.written", lang, n=len(files), path=directory))
    print(t("deploy_files.next", lang, path=directory), file=sys.stderr)
    return ExitStatus.OK
