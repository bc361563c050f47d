"""The model presets, where the memory model's callers have always imported them (home: procurement.llm.presets)."""

from procurement.llm.presets import ALIASES as ALIASES
from procurement.llm.presets import HF as HF
from procurement.llm.presets import MODELS as MODELS
from procurement.llm.presets import PRESETS as PRESETS
from procurement.llm.presets import preset as preset
