"""Build step only (the project is configured in pyproject.toml): ship the repository's deploy/ (the Slurm
batch script, the Ansible playbook and role) inside the wheel as gpu_procure/deploy, where
`gpu-procure deploy-files DIR` finds it. deploy/ stays at the top of the tree for people with a checkout."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithDeploy(build_py):
    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "deploy"
        if source.is_dir():  # copy2 keeps the batch script's executable bit
            shutil.copytree(source, Path(self.build_lib) / "gpu_procure" / "deploy", dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]", "reports", "files"))


setup(cmdclass={"build_py": BuildPyWithDeploy})
