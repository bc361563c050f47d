"""The model shapes, where the memory model's callers have always imported them (home: procurement.llm.shapes)."""

from procurement.llm.shapes import ALL_LINEAR as ALL_LINEAR
from procurement.llm.shapes import ATTENTION_TARGETS as ATTENTION_TARGETS
from procurement.llm.shapes import CONFIG_MAX_BYTES as CONFIG_MAX_BYTES
from procurement.llm.shapes import MLP_TARGETS as MLP_TARGETS
from procurement.llm.shapes import ConfigError as ConfigError
from procurement.llm.shapes import ModelSpec as ModelSpec
from procurement.llm.shapes import from_hf_config as from_hf_config
from procurement.llm.shapes import load_hf_config as load_hf_config
from procurement.llm.shapes import read_hf_config as read_hf_config
