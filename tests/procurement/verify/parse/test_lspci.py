"""procurement/verify/parse/lspci.py on a real `lspci -nn -D`
(tests/fixtures/acceptance/lspci, sources in its README)."""

from __future__ import annotations

from procurement.verify.parse.lspci import lspci_gpus
from tests.procurement.verify.conftest import ACCEPT


def test_the_nvidia_gpus_on_the_bus() -> None:
    gpus = lspci_gpus((ACCEPT / "lspci/lspci-nn-azure-a100-sxm4-8gpu.txt").read_text())
    assert len(gpus) == 8 and len(set(gpus)) == 8


def test_other_vendors_and_classes_are_not_gpus() -> None:
    text = ("0000:db:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
            "0000:03:00.0 VGA compatible controller [0300]: ASPEED Technology, Inc. ASPEED Graphics Family "
            "[1a03:2000] (rev 52)\n"
            "0000:0a:00.0 Bridge [0680]: NVIDIA Corporation Device [10de:22a3] (rev a1)\n")
    assert lspci_gpus(text) == ["0000:db:00.0"]
