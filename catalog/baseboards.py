"""Which GPU modules each SXM baseboard class takes, and whether it carries NVSwitch chips (sourced table)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Baseboard:
    name: str
    modules: tuple[str, ...]
    """Catalog GPU ids of the modules the board takes."""
    nvswitch: bool
    """NVSwitch chips on the board (the facility model adds their baseboard overhead)."""
    source: str


BASEBOARDS: dict[str, Baseboard] = {
    "hgx-h100-8": Baseboard(
        name="NVIDIA HGX H100/H200-class 8-GPU (Hopper SXM5)",
        modules=("h100-sxm5-80gb", "h200-sxm-141gb", "h800-sxm5-80gb", "h20-96gb"),
        nvswitch=True,
        source="docs/sources.md §A2: H100 SXM5 'SXM5 (HGX 4/8-GPU)' (G1, G22); H200 SXM 'SXM (HGX 4/8)' "
        "(G1); H800 'SXM5', the Hopper SXM5 part for China with NVLink cut to 400 GB/s (G19); H20 'SXM (8-way "
        "HGX)' (G10). One platform sold with both H100 and H200 trays: Supermicro SYS-821GE-TNHR (catalog "
        "chassis source). "
        "NVSwitch: third-generation NVSwitch on the HGX H100 board (NVIDIA developer blog 'Upgrading "
        "Multi-GPU Interconnectivity with the Third-Generation NVIDIA NVSwitch').",
    ),
    "hgx-a100-8": Baseboard(
        name="NVIDIA HGX A100 8-GPU (Ampere SXM4)",
        modules=("a100-sxm4-40gb", "a100-sxm4-80gb"),
        nvswitch=True,
        source="docs/sources.md §A2: A100 SXM4 40/80 GB 'SXM4 module (HGX/DGX)' (G7, G20); six NVSwitch on the "
        "DGX A100 board (https://geektopia.es/es/technology/2020/05/14/noticias/nvidia-anuncia-el-servidor-dgx-a100-ocho-"
        "tesla-a100-desde-200-000-dolares.html). The A800 SXM4 (China, docs/sources.md §G18) is the same module class "
        "but is not in the catalog.",
    ),
    "hgx-b200-8": Baseboard(
        name="NVIDIA HGX B200 8-GPU (Blackwell)",
        modules=("b200",),
        nvswitch=True,
        source="docs/sources.md §A2: B200 'SXM (HGX B200 8-GPU)' (G3); NVIDIA DGX B200 User Guide: '2 x 5th generation "
        "NVLink switches' (https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html)",
    ),
    "hgx-b300-8": Baseboard(
        name="NVIDIA HGX B300 8-GPU (Blackwell Ultra)",
        modules=("b300",),
        nvswitch=True,
        source="HGX B300: 8x Blackwell Ultra GPUs per baseboard, NVLink 5 through NVLink switches (14.4 TB/s "
        "aggregate), eight ConnectX-8 on the board (https://acecloud.ai/blog/nvidia-hgx-b300 ; "
        "https://fibermall.com/blog/?p=17161: 'NVIDIA NVSwitch: NVLink 5 Switch')",
    ),
    "hgx-1-sxm2": Baseboard(
        name="NVIDIA HGX-1 / DGX-1 8-GPU SXM2 (NVLink hybrid cube mesh, no NVSwitch)",
        modules=("v100-sxm2-32gb", "p100-sxm2-16gb"),
        nvswitch=False,
        source="docs/sources.md §A2: V100 SXM2 and P100 SXM2 modules (G5, G16); NVIDIA DGX-1 with Tesla V100 system "
        "architecture white paper: 8 V100 'connect through NVIDIA NVLink ... in a hybrid cube-mesh network' "
        "(https://leslivresblancs.fr/livre/informatique-et-logiciels/intelligence-artificielle/nvidia-dgx-1-"
        "tesla-v100-system)",
    ),
}
