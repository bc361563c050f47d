"""The checklist's items — ids, section, who decides, the plan fields they look at — below the plan and the rules.

The plan file keys a person's ticks by item id (``checklist:``) and refuses an id this version does not know;
the rules declare the item each finding bears on (procurement.rules.registry). Both read this table, so it
sits below them; procurement.checklist judges the items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Which = Literal["hardware", "software"]


@dataclass(frozen=True)
class ItemDef:
    id: str
    which: Which
    person: bool = False
    """Only a person can judge it: the tick (plan.checklist[id].checked) decides unless the plan is faulty."""
    fields: tuple[str, ...] = ()
    """Plan paths the item looks at (for the GUI to point at)."""


ITEMS: tuple[ItemDef, ...] = (
    ItemDef("gpu_model_count", "hardware", fields=("gpu.model", "gpu.count")),
    ItemDef("gpu_vram", "hardware", fields=("gpu.model", "gpu.count", "requirements.model_params_b")),
    ItemDef("cpu_cores", "hardware", fields=("server.cpu", "server.cpu_count")),
    ItemDef("ram", "hardware", fields=("server.memory",)),
    ItemDef("storage_nvme", "hardware", fields=("server.storage",)),
    ItemDef("network", "hardware", fields=("server.nics", "requirements.nodes")),
    ItemDef("psu_power", "hardware", fields=("server.psu",)),
    ItemDef("cooling", "hardware", fields=("server.chassis", "gpu.model")),
    ItemDef("os_driver", "software", fields=("software.os", "software.driver")),
    ItemDef("cuda_gpu", "software", fields=("software.cuda", "software.driver", "gpu.model")),
    ItemDef("framework_installed", "software", person=True, fields=("software.framework",)),
    ItemDef("preinstalled_software", "software", person=True, fields=("software.image",)),
    ItemDef("image_trusted", "software", person=True, fields=("software.image",)),
)
ITEM_IDS = tuple(d.id for d in ITEMS)
