"""The buyer's Plan document: its model, its YAML file format, atomic save and located load errors."""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import json
import re
import types
import typing
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from catalog.compat import StrEnum
from catalog.loader import Catalog
from catalog.yamlsource import (
    MAX_YAML_VALUES,
    Locator,
    YamlError,
    format_loc,
    locate,
    not_finite,
    parse_yaml,
    read_yaml_text,
)
from procurement.checklist_items import ITEM_IDS
from procurement.facility import VoltageBand
from procurement.llm.presets import preset
from procurement.messages import Lang, register, t
from procurement.migrations import CURRENT, FIRST, MigrationError, migrate
from procurement.safe_io import FileStamp, WriteError, stamp_of, write_file
from procurement.verification_report import MERGED_KIND, ReportError, VerificationReport, migrate_report

SCHEMA_VERSION: Final = CURRENT
PLAN_SUFFIX = ".gpuplan"
"""New plans are saved as NAME.gpuplan: Windows and macOS associate a file type by its last extension only, so
the double .gpuplan.yaml of 0.1.0 could not open the app from Explorer or Finder. The content is the same YAML."""
PLAN_SUFFIXES = (PLAN_SUFFIX, ".gpuplan.yaml")
"""Every name a plan file has had; .gpuplan.yaml files (and any .yaml) still open."""

Count = Annotated[int, Field(ge=0, le=10_000)]
MAX_PART_LINES = 500
"""Lines one list of parts (``server.storage``, ``server.nics``) may hold. A server takes a few dozen drives
and a dozen adapters, each line with a count; 10,000 lines were read, checked and printed into every PDF for
a minute before anything said the file was wrong (issue 31)."""
Text = Annotated[str, Field(max_length=20_000)]
ShortText = Annotated[str, Field(max_length=500)]
_BREAKS = re.compile("[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def one_line(value: str) -> str:
    """A one-line field as typed or pasted into the window: line breaks and tabs become one space, the other
    control characters and the bidi embedding/override/isolate controls go. A title pasted from a mail kept its
    CR/LF and an escape sequence in the plan and the window title. (A file's own text is kept as written: the
    PDFs and the terminal show its line breaks escaped, procurement/terminal.py.)"""
    return _CONTROLS.sub("", _BREAKS.sub(" ", value))


PartRef = Annotated[str, Field(max_length=80)]
"""A catalog id as the plan names it (catalog ids are at most 80 characters): a longer one is no part."""
MAX_CHECKLIST_MARKS = 1_000
"""Marks ``checklist`` may hold: this version knows a dozen items; a thousand leaves room for a newer one's
and for a file's mistyped ids, each said on its own line (docs/plan-format.md)."""
MAX_WAIVERS = 1_000
"""Waivers one plan may hold: one per rule is all that counts (the sign-off lists them by rule), and there
are a few hundred rules."""
MAX_SIGNERS = 100
"""Signers of one sign-off: each person signs once (a second signature replaces the first)."""
MAX_SIGNED_FIELDS = MAX_YAML_VALUES // 2
"""Fields a sign-off's ``content`` may hold: each is a key and a value, so a plan file holds no more."""
MAX_REPORTS_IN_PLAN = 1_000
"""Reports a plan may hold, however small each (a one-GPU report holds about 150 values): a thousand
malformed entries are a thousand error lines, not 100,000."""
MAX_OFFER_LINES = 5_000
"""Lines of one vendor's quote. The app writes each with its 8 fields (17 values): 10,000 lines, the earlier cap,
were a plan the app saved and could not open again (170,000 values, past MAX_YAML_VALUES)."""
MAX_CONFIG_JSON = 1 << 20
"""A pasted configuration (``hf_config``, ``deepspeed_config``) is at most 1 MiB as JSON: a model's
config.json or a ds_config.json is a few kilobytes."""


def _types(annotation: Any) -> set[Any]:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Annotated:
        return _types(args[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return set().union(*(_types(a) for a in args))
    return {annotation}


class Doc(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True, str_strip_whitespace=False)

    @field_validator("*", mode="before")
    @classmethod
    def _numbers_are_not_booleans(cls, value: Any, info: ValidationInfo) -> Any:
        """``count: true`` is not 1: YAML's true/false where a number is meant is refused (pydantic's lax mode
        took ``gpu.count: true`` as one GPU)."""
        if isinstance(value, bool) and info.field_name in cls.model_fields:
            kinds = _types(cls.model_fields[info.field_name].annotation)
            if bool not in kinds and kinds & {int, float, Decimal}:
                raise PydanticCustomError("number_not_bool", "Input should be a number, not true/false")
        return value


class Workload(StrEnum):
    TRAINING = "training"
    FINE_TUNING = "fine_tuning"
    INFERENCE = "inference"
    RENDERING = "rendering"
    SCIENTIFIC = "scientific"
    DATA_ANALYSIS = "data_analysis"


class Precision(StrEnum):
    FP32 = "fp32"
    MIXED = "mixed"  # bf16/fp16 mixed precision with fp32 master weights
    BF16 = "bf16"  # pure bf16/fp16 weights (inference, or bf16-only training)
    FP8 = "fp8"
    INT8 = "int8"
    INT4 = "int4"


class Optimizer(StrEnum):
    ADAMW = "adamw"
    SGD_MOMENTUM = "sgd_momentum"
    ADAM_8BIT = "adam_8bit"


class TrainingMode(StrEnum):
    FULL_TRAINING = "full_training"
    FULL_FINETUNE = "full_finetune"
    LORA = "lora"
    INFERENCE = "inference"


class Usage(StrEnum):
    OCCASIONAL = "occasional"
    CONTINUOUS = "continuous"


class Sensitivity(StrEnum):
    LOW = "low"
    HIGH = "high"


LoraTarget = Literal["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


class Requirements(Doc):
    """Step 1 (需求分析): what the buyer needs to run."""

    workload: Workload = Workload.TRAINING
    mode: TrainingMode | None = None
    """None: implied by the workload (training → full training, fine-tuning → full fine-tune…)."""
    model_preset: PartRef | None = None
    model_params_b: Annotated[float, Field(ge=0, le=100_000)] | None = None
    layers: Annotated[int, Field(ge=1, le=100_000)] | None = None
    hidden_size: Annotated[int, Field(ge=1, le=10_000_000)] | None = None
    kv_heads: Annotated[int, Field(ge=1, le=100_000)] | None = None
    head_dim: Annotated[int, Field(ge=1, le=100_000)] | None = None
    precision: Precision = Precision.MIXED
    optimizer: Optimizer = Optimizer.ADAMW
    batch_size: Annotated[int, Field(ge=1, le=1_000_000)] = 1
    sequence_length: Annotated[int, Field(ge=1, le=100_000_000)] = 2048
    dataset_gb: Annotated[float, Field(ge=0, le=1e9)] = 0
    budget_cny: Annotated[float, Field(ge=0, le=1e12)] | None = None
    """The most the buyer may spend (CNY, with VAT), the top of the budget range; None: no budget stated."""
    nodes: Annotated[int, Field(ge=1, le=100_000)] = 1
    usage: Usage = Usage.CONTINUOUS
    data_sensitivity: Sensitivity = Sensitivity.LOW
    deployment: Literal["datacenter", "office", "lab"] = "datacenter"
    needs_mig: bool = False
    needs_nvlink: bool = False
    # schema_version 2: the model's full shape, the parallelism plan, the recipe and serving (docs/sizing.md)
    attention_heads: Annotated[int, Field(ge=1, le=100_000)] | None = None
    vocab_size: Annotated[int, Field(ge=1, le=100_000_000)] | None = None
    hf_config: dict[str, Any] | None = None
    """A pasted or loaded Hugging Face config.json (the model's shape when no preset is chosen)."""
    scheme: Literal["dp", "zero1", "zero2", "zero3"] | None = None
    """Data-parallel sharding (zero3 = FSDP); None: the cheapest scheme that fits."""
    tensor_parallel: Annotated[int, Field(ge=1, le=1024)] | None = None
    pipeline_parallel: Annotated[int, Field(ge=1, le=1024)] | None = None
    gradient_checkpointing: bool | None = None
    """None: the recipe's default (on for LoRA/QLoRA, off for full training)."""
    lora_rank: Annotated[int, Field(ge=1, le=65_536)] | None = None
    lora_targets: list[LoraTarget] | None = Field(default=None, max_length=len(typing.get_args(LoraTarget)))
    """None: every linear layer of the blocks (the QLoRA recipe)."""
    kv_precision: Literal["bf16", "fp8", "fp32"] = "bf16"
    offload_optimizer: bool = False
    network_gbps: Annotated[float, Field(gt=0, le=1_000_000)] | None = None
    """Network between nodes, Gb/s per node (None: from the plan's NICs)."""
    concurrent_users: Annotated[int, Field(ge=1, le=10_000_000)] | None = None
    """Serving: requests of sequence_length tokens that must run at once."""
    # schema_version 6: how much of the time the servers run at full load (total cost of ownership)
    utilisation_pct: Annotated[float, Field(ge=0, le=100)] | None = None
    """Share of the service life the servers run at full load, in percent (None: not stated, so the electricity
    cost is unknown). The buyer's own figure: no default is assumed (docs/tco.md)."""
    # schema_version 12: the bottom of the budget range, and the training options `gpu-procure size` takes
    budget_min_cny: Annotated[float, Field(ge=0, le=1e12)] | None = None
    """The least the buyer means to spend (CNY, with VAT): a range 15–20万 is budget_min_cny 150 000 and
    budget_cny 200 000. None: no lower end (a single budget is its maximum, as before format 12)."""
    attention: Literal["flash", "sdpa", "eager"] = "flash"
    """Training's attention kernel: ``eager`` stores the a·s² score matrices, FlashAttention and SDPA do not
    (`size --attention`)."""
    loss_chunks: Annotated[int, Field(ge=1, le=65_536)] = 1
    """Cross-entropy over this many chunks of the sequence (chunked or compiled loss, Liger): only one chunk's
    logits are live at once (`size --loss-chunks`)."""
    sequence_parallel: bool = False
    """Megatron sequence parallelism with tensor parallelism (`size --sequence-parallel`)."""
    offload_params: bool = False
    """ZeRO-3 ``offload_param``: the 16-bit weights live in CPU RAM (`size --offload-params`)."""
    offload_activations: bool = False
    """Activation checkpoints in CPU RAM (DeepSpeed cpu_checkpointing; needs gradient checkpointing, which it
    turns on when left to the recipe) (`size --offload-activations`)."""
    deepspeed_config: dict[str, Any] | None = None
    """A pasted or loaded ds_config.json (`size --deepspeed-config`): its ZeRO stage, bucket sizes and offloads;
    checked as the sizing reads it (procurement.sizing.deepspeed)."""

    @field_validator("hf_config")
    @classmethod
    def _config_size(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None and len(json.dumps(value, default=str)) > MAX_CONFIG_JSON:
            raise PydanticCustomError("config_too_large", "larger than 1 MiB as JSON: not a model configuration")
        return value

    @model_validator(mode="after")
    def _offloads(self) -> Requirements:
        # a minimum above the maximum is not refused here (typed one digit at a time, the maximum passes below
        # the minimum on its way): the budget rules say it (BUDGET-RANGE), at the field
        if self.offload_activations and self.gradient_checkpointing is False:
            raise ValueError("offload_activations moves the activation checkpoints: it needs "
                             "gradient_checkpointing on (or unset)")
        if self.deepspeed_config is not None and len(json.dumps(self.deepspeed_config, default=str)) > MAX_CONFIG_JSON:
            raise ValueError("deepspeed_config: larger than 1 MiB, not a DeepSpeed configuration")
        return self


TRAINING_OPTIONS: tuple[str, ...] = ("attention", "loss_chunks", "sequence_parallel", "offload_params",
                                     "offload_activations", "deepspeed_config")
"""The requirements fields of format 12 that are `gpu-procure size`'s training options."""


class GpuChoice(Doc):
    """Step 2 (GPU选型)."""

    model: PartRef | None = None
    count: Count = 0


class PartCount(Doc):
    part: PartRef
    count: Count = 1


class StorageRole(StrEnum):
    SYSTEM = "system"
    DATA = "data"
    BACKUP = "backup"
    SCRATCH = "scratch"


class StorageItem(Doc):
    role: StorageRole
    part: PartRef
    count: Count = 1


class Redundancy(StrEnum):
    """PSUs held in reserve: none, N+1 (5+1), N+2 (4+2), N+3 (3+3 with six) or N+N (half of them)."""

    NONE = "none"
    N_PLUS_1 = "n+1"
    N_PLUS_2 = "n+2"
    N_PLUS_3 = "n+3"
    N_PLUS_N = "n+n"

    @property
    def spares(self) -> int | None:
        """Units in reserve for N+M (M), 0 for none; None for N+N (half the count)."""
        return {"none": 0, "n+1": 1, "n+2": 2, "n+3": 3}.get(self.value)


class PsuChoice(Doc):
    part: PartRef | None = None
    count: Count = 0
    redundancy: Redundancy = Redundancy.NONE


AutoPart = Literal["chassis", "cpu", "memory", "storage", "nics", "psu"]
"""The server parts Auto-configure chooses (``ServerConfig`` field names; ``psu`` covers part, count and
redundancy, ``cpu`` the CPU and its socket count)."""
AUTO_PARTS: tuple[AutoPart, ...] = ("chassis", "cpu", "memory", "storage", "nics", "psu")


class ServerConfig(Doc):
    """Step 3 (服务器配置)."""

    @field_validator("input_voltage", mode="before")
    @classmethod
    def _voltage_as_text(cls, v: object) -> object:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v  # 220 written without quotes

    chassis: PartRef | None = None
    cpu: PartRef | None = None
    cpu_count: Annotated[int, Field(ge=0, le=16)] = 1
    memory: PartCount | None = None
    storage: list[StorageItem] = Field(default_factory=list, max_length=MAX_PART_LINES)
    nics: list[PartCount] = Field(default_factory=list, max_length=MAX_PART_LINES)
    psu: PsuChoice = Field(default_factory=PsuChoice)
    input_voltage: VoltageBand = "200-240"
    """Mains as the buyer states it: 100-127, 200-208, 220 (China), 230, 240 V, or 200-240 V (unspecified
    high line). Version-1 plans' 'high'/'low' are migrated to 200-240 / 100-127."""
    rack_power_limit_kw: Annotated[float, Field(gt=0, le=10_000)] | None = None
    servers_per_rack: Annotated[int, Field(ge=1, le=1000)] = 1
    auto_chosen: list[AutoPart] = Field(default_factory=list, max_length=len(typing.get_args(AutoPart)))
    """The parts whose current choice Auto-configure made (schema_version 6); every other part that is set was
    chosen by hand (or in an older file, by whoever wrote it), and Auto-configure asks before replacing it."""


class SoftwareChoice(Doc):
    """Step 4 (镜像选择)."""

    os: PartRef | None = None
    driver: PartRef | None = None
    cuda: PartRef | None = None
    framework: PartRef | None = None
    image: PartRef | None = None


# schema_version 11: what happens after delivery (procurement/host_tuning.py, mig.py, kubernetes.py, dockerfile.py)
MigProfileName = Annotated[str, Field(pattern=r"^[1-8]g\.[0-9]{1,3}gb(\+me)?$")]


class ApplicationClocks(Doc):
    """`nvidia-smi -ac MEMORY,GRAPHICS`: fixed application clocks (one of the GPU's supported pairs)."""

    memory_mhz: Annotated[int, Field(ge=1, le=100_000)]
    graphics_mhz: Annotated[int, Field(ge=1, le=100_000)]


class HostTuningChoice(Doc):
    """Host tuning the handover applies and verify checks; None: the policy's default (host_tuning.DEFAULTS)."""

    cpu_governor: Literal["performance", "keep"] | None = None
    swap: Literal["off", "keep"] | None = None
    hugepages_2m: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    """2 MiB huge pages reserved at boot (vm.nr_hugepages); None: the policy's default."""
    transparent_hugepages: Literal["always", "madvise", "never", "keep"] | None = None
    data_mount: Literal["noatime", "keep"] | None = None
    data_fs: Literal["xfs", "ext4", "any"] | None = None
    fd_limit: Annotated[int, Field(ge=1024, le=1 << 30)] | None = None
    ecc: Literal["keep", "on", "off"] = "keep"
    """'off' (nvidia-smi -e 0) trades error detection for a little memory and speed: only when the buyer asks."""
    application_clocks: ApplicationClocks | None = None
    """Set only when the buyer asks (nvidia-smi -ac): fixed clocks can exceed the power or thermal envelope."""


class Operations(Doc):
    """After delivery: the image's build choices, the host tuning, GPU sharing and the orchestrator."""

    image_base: Literal["runtime", "devel"] = "runtime"
    multi_stage: bool = True
    image_date: dt.date | None = None
    """The date in the image tag ({framework}-{version}-cuda{cuda}-{date}); None: the day it is written."""
    orchestrator: Literal["none", "kubernetes"] = "none"
    mig_strategy: Literal["single", "mixed"] | None = None
    """The GPU Operator's MIG strategy; None: single when every GPU has one profile, else mixed."""
    mig_layout: list[MigProfileName] | None = Field(default=None, max_length=8)
    """The MIG instances of each GPU, by profile name; None: the planner's layout for the plan."""
    host: HostTuningChoice = Field(default_factory=HostTuningChoice)


class ChecklistMark(Doc):
    """A person's judgement on a checklist item: a tick and a note (items only a person can judge), or a
    confirmation of an automatic item the app cannot decide (then ``by`` and a note are required)."""

    checked: bool = False
    note: Text = ""
    by: ShortText = ""
    """Who confirmed it (shown as 'confirmed by <name>', never as an automatic pass)."""


SignOffKind = Literal["approval", "acceptance"]


class Signer(Doc):
    """One person's signature on a sign-off (user department, asset management, vendor representative …)."""

    name: Annotated[str, Field(min_length=1, max_length=500)]
    role: ShortText = ""
    date: dt.date
    ssh_principal: ShortText = ""
    """The identity an SSH signature claims (looked up in the allowed-signers file); '' without one."""
    ssh_signature: Annotated[str, Field(max_length=10_000)] = ""
    """`ssh-keygen -Y sign` over the sign-off's canonical content (procurement.signoff.canonical_bytes)."""


class SignOff(Doc):
    """A sign-off of one kind: its signers and a record of exactly what they signed."""

    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    """SHA-256 of the signed content (procurement.signoff.content_digest): an integrity check, not a signature."""
    content: dict[str, str] = Field(default_factory=dict, max_length=MAX_SIGNED_FIELDS)
    """The signed content, field by field, so that what changed since signing can be said in words."""
    signers: list[Signer] = Field(min_length=1, max_length=MAX_SIGNERS)
    legacy: bool = False
    """Migrated from a plan format whose digest covered other content: it cannot be checked and needs re-signing."""


class Waiver(Doc):
    """A finding accepted on purpose: by whom, when and why (a decision someone signs, not a hidden warning)."""

    rule: str = Field(pattern=r"^[A-Z0-9]+(-[A-Z0-9]+)+$", max_length=80)
    reason: Annotated[str, Field(min_length=1, max_length=20_000)]
    by: Annotated[str, Field(min_length=1, max_length=500)]
    date: dt.date
    params: dict[Annotated[str, Field(max_length=80)], Annotated[str, Field(max_length=2_000)]] = Field(
        default_factory=dict, max_length=200)
    """The numbers in each of the finding's parameters when it was waived (parameter -> numbers, e.g.
    ``{"draw": "3200"}``), the same in every language: the waiver goes stale when they change."""
    numbers: list[Annotated[str, Field(max_length=2_000)]] = Field(default_factory=list, max_length=200)
    """Format 5 (and a finding without parameters): the numbers in the finding's message, compared instead (in
    whichever language they match: the waiver does not record the one it was made in)."""


class AcceptanceInfo(Doc):
    """The delivery acceptance (到货验收): what was delivered against which contract, and the conclusion."""

    contract_number: ShortText = ""
    delivery_date: dt.date | None = None
    conclusion: Literal["pass", "fail", "rework"] | None = None
    """合格 / 不合格 / 整改后复验."""
    reasons: Text = ""


class Party(Doc):
    name: ShortText = ""
    contact: ShortText = ""
    address: ShortText = ""
    # schema_version 6: what a Chinese commercial quote states of each party (when given)
    phone: ShortText = ""
    tax_id: ShortText = ""
    """纳税人识别号 / 统一社会信用代码."""
    bank: ShortText = ""
    """开户行."""
    bank_account: ShortText = ""
    """账号."""


class EnteredPrice(Doc):
    """A price the buyer has for one part (by catalog id), stored in the plan so that a plan reopened a year
    later shows the same money: typed in the quote page, or a line of a vendor's quote or a company list."""

    price_cny: Annotated[float, Field(ge=0, le=1e12)]
    with_vat: bool | None = None
    """Whether the price includes VAT (None: not stated — read as excluding it, the higher reading)."""
    kind: Literal["entered", "vendor_quote", "company"] = "entered"
    date: dt.date | None = None
    source: ShortText = ""
    """Who gave the price: a vendor and quote number, a price list, or 'entered by <name>'."""


InvoiceType = Literal["special", "ordinary"]
"""增值税专用发票 (special VAT invoice, input VAT deductible) / 增值税普通发票 (ordinary invoice)."""


class IssuedQuote(Doc):
    """A quote as issued: its number, date and validity are kept, so that printing it again gives the same
    paper (schema_version 6). A new number is issued only on request."""

    number: Annotated[str, Field(min_length=1, max_length=500)]
    date: dt.date
    valid_until: dt.date
    digest: str = Field(default="", pattern=r"^([0-9a-f]{64})?$")
    """canonical_digest of the plan when issued: a later change of the configuration is shown, not hidden."""


class QuoteInfo(Doc):
    number: ShortText = ""
    """The buyer's own number for the next quote issued ('' : one made from the date and the plan digest)."""
    buyer: Party = Field(default_factory=Party)
    vendor: Party = Field(default_factory=Party)
    validity_days: Annotated[int, Field(ge=1, le=3650)] = 30
    # schema_version 6: the commercial terms of a Chinese quote (报价单), printed when given
    delivery: ShortText = ""
    """交货期, e.g. '合同签订后 30 日内'."""
    warranty: ShortText = ""
    """质保/售后, e.g. '整机三年原厂质保，7×24 小时响应'."""
    payment: ShortText = ""
    """付款方式, e.g. '验收合格后 30 日内付全款'."""
    invoice: InvoiceType | None = None
    freight: ShortText = ""
    """运费/安装调试, e.g. '含运费及上门安装调试'."""
    issued: IssuedQuote | None = None


class TcoInputs(Doc):
    """What the total cost of ownership rests on besides the purchase (schema_version 6). Each is the buyer's
    own figure or a published one the buyer chose, with its source; None: not known (docs/tco.md)."""

    electricity_cny_per_kwh: Annotated[float, Field(ge=0, le=100)] | None = None
    electricity_source: ShortText = ""
    pue: Annotated[float, Field(ge=1, le=5)] | None = None
    """Power usage effectiveness of the room: facility power over IT power (1.0: no cooling overhead counted)."""
    pue_source: ShortText = ""
    service_life_years: Annotated[float, Field(gt=0, le=30)] | None = None
    cloud_cny_per_gpu_hour: Annotated[float, Field(ge=0, le=100_000)] | None = None
    """What renting one comparable cloud GPU costs per hour (for the cloud-or-own comparison)."""
    cloud_source: ShortText = ""


PartId = Annotated[str, Field(min_length=1, max_length=80)]


class OfferLine(Doc):
    """One line of a vendor's quote as the buyer keeps it: which plan part it prices (or none: an extra line
    such as installation, shipping or a warranty extension), what the vendor offers for it, and the price."""

    text: ShortText = ""
    """The line as the vendor wrote it (品名 · 型号 · 规格)."""
    row: Annotated[int, Field(ge=1, le=10_000_000)] | None = None
    """Its row in the imported file (None: typed in)."""
    for_part: PartId | None = None
    """The plan's part (catalog id) this line prices; None: an extra line, priced and kept, matched to no part."""
    offered: PartId | None = None
    """The catalog part the vendor offers instead of ``for_part`` (a substitution); None: the plan's own part."""
    substitute_unknown: bool = False
    """The vendor offers a part the catalog does not know instead of ``for_part``: the rules cannot check it,
    so the offer's compliance is unknown."""
    quantity: Annotated[float, Field(ge=0, le=1e9)] | None = None
    """As the vendor quotes it for the whole purchase (None: not stated)."""
    unit_price_cny: Annotated[float, Field(ge=0, le=1e12)] | None = None
    """None: not priced (询价, 待定, empty)."""
    with_vat: bool | None = None
    """Whether the unit price includes VAT (None: not stated — read as excluding it, the higher reading)."""


class VendorQuote(Doc):
    """A vendor's offer for the plan (one of the quotes compared, 三家比价)."""

    vendor: Annotated[str, Field(min_length=1, max_length=500)]
    number: ShortText = ""
    date: dt.date | None = None
    delivery: ShortText = ""
    """交货期 as the vendor states it ('合同签订后 4 周')."""
    warranty: ShortText = ""
    """质保 / 售后 as the vendor states it."""
    payment_terms: ShortText = ""
    """付款方式 as the vendor states it."""
    document: ShortText = ""
    """The name of the vendor's document it was read from (a file name, kept as text)."""
    lines: list[OfferLine] = Field(default_factory=list, max_length=MAX_OFFER_LINES)


class Plan(Doc):
    """The buyer's document: everything decided in the five steps, plus checklist, sign-off and reports."""

    schema_version: Annotated[int, Field(ge=SCHEMA_VERSION, le=SCHEMA_VERSION)] = SCHEMA_VERSION
    """Always CURRENT once loaded: older files are migrated first (procurement/migrations.py)."""
    title: ShortText = ""
    requirements: Requirements = Field(default_factory=Requirements)
    gpu: GpuChoice = Field(default_factory=GpuChoice)
    server: ServerConfig = Field(default_factory=ServerConfig)
    software: SoftwareChoice = Field(default_factory=SoftwareChoice)
    checklist: dict[Annotated[str, Field(max_length=80)], ChecklistMark] = Field(
        default_factory=dict, max_length=MAX_CHECKLIST_MARKS)
    signoffs: dict[SignOffKind, SignOff] = Field(default_factory=dict)
    waivers: list[Waiver] = Field(default_factory=list, max_length=MAX_WAIVERS)
    acceptance: AcceptanceInfo = Field(default_factory=AcceptanceInfo)
    quote: QuoteInfo = Field(default_factory=QuoteInfo)
    tco: TcoInputs = Field(default_factory=TcoInputs)
    prices: dict[Annotated[str, Field(max_length=80)], EnteredPrice] = Field(default_factory=dict, max_length=10_000)
    """Prices the buyer entered or imported, by part id; they take precedence over the catalog's reference
    prices (budgets/cost.py ``price_of``)."""
    vendor_quotes: list[VendorQuote] = Field(default_factory=list, max_length=100)
    """Vendors' offers for this plan, compared side by side (procurement/pricing/compare.py)."""
    chosen_vendor: ShortText | None = None
    """The vendor whose offer the buyer chose (one of ``vendor_quotes``): the offer the approval sign-off covers."""
    operations: Operations = Field(default_factory=Operations)
    verification: list[VerificationReport] = Field(default_factory=list, max_length=MAX_REPORTS_IN_PLAN)
    """Verification reports as written by `gpu-procure verify --json` (procurement.verification_report; older
    report versions are brought up to the current one as they are read)."""
    notes: Text = ""

    @model_validator(mode="after")
    def _vendors_named_once(self) -> Plan:
        names = [q.vendor for q in self.vendor_quotes]
        if len(set(names)) != len(names):
            raise ValueError("vendor_quotes: each vendor is listed once")
        if self.chosen_vendor is not None and self.chosen_vendor not in names:
            raise ValueError(f"chosen_vendor: '{self.chosen_vendor}' is not one of the vendor quotes")
        return self

    @field_validator("verification", mode="before")
    @classmethod
    def _reports(cls, reports: Any) -> Any:
        if not isinstance(reports, list):
            return reports
        if len(reports) > MAX_REPORTS_IN_PLAN:  # before each one is migrated
            raise PydanticCustomError("too_long", "{actual_length} entries, more than {max_length}",
                                      {"actual_length": len(reports), "max_length": MAX_REPORTS_IN_PLAN})
        # a plan file may hold MAX_YAML_VALUES values: 300 attached 8-GPU reports (161 700 values) were
        # saved, and the saved plan then did not open again
        count = _count_values(reports, MAX_REPORT_VALUES_IN_PLAN)
        if count > MAX_REPORT_VALUES_IN_PLAN:
            raise PydanticCustomError(
                "plan_reports_too_large",
                "the attached reports hold more than {limit} values ({reports} reports), more than a plan "
                "file can hold; keep the reports as files and merge them with 'verify --merge'",
                {"limit": f"{MAX_REPORT_VALUES_IN_PLAN:,}", "reports": len(reports)})
        # JSON may escape a lone surrogate ("\ud800") that a machine's report carried in; saved as YAML it
        # became a file that no longer opened ("invalid Unicode character escape code").
        try:  # the common case, no surrogate anywhere, checked in C (the walk took 1.1 s for 300 reports)
            json.dumps(reports, ensure_ascii=False).encode("utf-8")
        except (UnicodeEncodeError, TypeError, ValueError):  # a surrogate, or not JSON data: the walk decides
            reports = [_without_surrogates(r) if isinstance(r, dict) else r for r in reports]
        out = []
        for n, report in enumerate(reports):
            if isinstance(report, dict):
                if report.get("kind") in (MERGED_KIND, "gpu-procure-raw") or "nodes" in report:
                    raise ValueError(f"report {n + 1} is a merged cluster report or raw facts, not one node's "
                                     "judged report")
                if "schema_version" not in report:
                    report = {**report, "schema_version": 1}  # hand-written into an old plan: the first format
                try:
                    report = migrate_report(report, f"report {n + 1}")
                except ReportError as exc:
                    raise ValueError(str(exc)) from None
            out.append(report)
        return out

    def verification_data(self) -> list[dict[str, Any]]:
        """The attached reports as JSON objects, as `gpu-procure verify --json` writes them."""
        return [r.model_dump(mode="json") for r in self.verification]



MAX_REPORT_VALUES_IN_PLAN = MAX_YAML_VALUES - 30_000
"""Values the attached verification reports may hold together (an 8-GPU report holds about 740, so about 160
of them): the rest of the plan keeps 30 000 of the file's MAX_YAML_VALUES (a 500-storage-line plan holds about
2 600). Opening a plan at the limit peaks under the 200 MB bound (docs/reliability.md)."""


def _count_values(value: Any, stop: int) -> int:
    """Scalars, lists and mappings in ``value`` as YAML counts them (keys are scalars), stopping past ``stop``."""
    count = 0
    todo = [value]
    while todo and count <= stop:
        item = todo.pop()
        count += 1
        if isinstance(item, dict):
            count += len(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return count


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


class PlanError(ValueError):
    """A plan file that cannot be read, with file:line and the field."""


def blank_plan() -> Plan:
    """A new plan, ``Plan()``, made without validating: the same values, and no field set, at every level.

    ``Plan()`` validates each part of the document (requirements, server, quote…) as its default factory makes
    it, building eleven validators of their own (~60 ms of the app's start, issue 25) that reading, dumping or
    validating a whole plan never uses: ``Plan``'s own covers its parts. The new window's plan is made here; a
    part's own validator is built when one is validated on its own."""
    return _blank(Plan)


_D = typing.TypeVar("_D", bound=Doc)


def _blank(cls: type[_D]) -> _D:
    parts: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        factory = info.default_factory
        if isinstance(factory, type) and issubclass(factory, Doc):
            parts[name] = _blank(factory)
    # every other field gets its default as validation gives it (a copy of a mutable one, a factory's value)
    return typing.cast("_D", cls.model_construct(_fields_set=set(), **parts))


# ---------------------------------------------------------------- serialisation

def plan_to_data(plan: Plan) -> dict[str, Any]:
    return plan.model_dump(mode="json", exclude_defaults=False)


_Dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter: 2.4x faster, same text


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100,
                     default_flow_style=False)


def dump_plan(plan: Plan) -> str:
    return _dump_counted(plan)[0]


def _dump_counted(plan: Plan) -> tuple[str, int]:
    """The canonical YAML text of a plan (deterministic: save → load → save is byte-identical).

    The attached reports are dumped one at a time and each one's data is dropped once written: one whole-plan
    dump built (and at its end freed, in one uninterruptible step holding the GIL: 80-150 ms paused the window
    after an autosave) a tree of every value of 160 reports. The text is the same as one ``safe_dump`` of the
    whole plan (tests/hardening/test_fuzz.py compares them)."""
    if not plan.verification or list(Plan.model_fields)[-2:] != ["verification", "notes"]:
        whole = plan_to_data(plan)
        return _dump(whole), _count_values(whole, MAX_YAML_VALUES)
    # one C call of pydantic's over all reports held the GIL 70-110 ms (the window waited): a report at a time
    data = plan.model_dump(mode="json", exclude={"verification"})
    count = _count_values(data, MAX_YAML_VALUES) + 2  # and the key verification: with its list
    notes = data.pop("notes")
    parts = [_dump(data), "verification:\n"]
    del data
    for report in plan.verification:
        # a top-level list of one: the same "- " lines as inside the mapping; its data is freed before the next
        one = report.model_dump(mode="json")
        count += _count_values(one, MAX_YAML_VALUES)
        parts.append(_dump([one]))
    parts.append(_dump({"notes": notes}))
    return "".join(parts), count


_NOT_CONFIGURATION = ("signoffs", "waivers", "acceptance", "verification", "notes", "checklist", "quote", "title",
                      "tco", "vendor_quotes", "chosen_vendor")


def canonical_digest(plan: Plan) -> str:
    """SHA-256 over the plan's decisions (not its sign-offs, waivers, reports, acceptance or free notes): it names
    the configuration (default quote numbers derive from it). Sign-offs carry their own digests
    (procurement.signoff)."""
    # left out of the dump rather than dumped and dropped: 120 attached node reports took 0.1 s to serialise
    data = plan.model_dump(mode="json", exclude=set(_NOT_CONFIGURATION))
    # not configuration either: who chose a part, and the cost-of-ownership inputs (a v5 plan keeps its digest,
    # which verification reports attached to it recorded)
    data["server"].pop("auto_chosen", None)
    data["requirements"].pop("utilisation_pct", None)
    # format 12's fields left at their defaults are hashed as before they existed: a plan signed under format 11
    # keeps its digest (a title was never configuration); set, they are decisions and count
    defaults = Requirements().model_dump(mode="json")
    for key in ("budget_min_cny", *TRAINING_OPTIONS):
        if key in data["requirements"] and data["requirements"][key] == defaults[key]:
            data["requirements"].pop(key)
    if data.get("operations") == Operations().model_dump(mode="json"):
        data.pop("operations")  # left as it comes: hashed as before the section existed (the version still counts)
    blob = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def parse_plan(
    text: str, path: str | Path = "<plan>", catalog: Catalog | None = None, lang: Lang = "en"
) -> Plan:
    """Parse plan YAML text; errors name file, line and field (and unknown part ids), the app's own words in
    ``lang`` (pydantic's value errors stay as pydantic words them)."""
    _check_whole(text, path, lang)
    try:
        data = parse_yaml(text, path)
    except YamlError as exc:
        raise PlanError(str(exc)) from None
    if not isinstance(data, dict):
        raise PlanError(f"{path}:1: not a plan (expected a mapping with 'schema_version', 'requirements', …)")
    version = data.get("schema_version")
    if "schema_version" not in data:
        raise PlanError(f"{path}:1: " + t("plan.err.no_schema", lang, v=SCHEMA_VERSION))
    try:
        migrated = migrate(data)
    except MigrationError:
        line = locate(text, ("schema_version",))
        supported = str(SCHEMA_VERSION) if FIRST == SCHEMA_VERSION else f"{FIRST}-{SCHEMA_VERSION}"
        raise PlanError(f"{path}:{line}: " + t("plan.err.schema", lang, got=repr(version), v=supported)) from None
    try:
        plan = Plan.model_validate(migrated)
    except ValidationError as exc:
        lines = []
        where = Locator(text)  # composed once for all the errors (once per error was quadratic)
        for err in exc.errors(include_url=False):
            loc = tuple(err["loc"])
            msg = t("plan.err.unknown_field", lang) if err["type"] == "extra_forbidden" else _pydantic_msg(err, lang)
            lines.append(f"{path}:{where.line(loc)}: {format_loc(loc)}: {msg}")
        raise PlanError("\n".join(lines)) from None
    if catalog is not None:
        unknown = unknown_references(plan, catalog, lang)
        if unknown:
            lines_of = Locator(text)  # composed once for all the ids (once per id took 40 s for 1,000)
            raise PlanError("\n".join(f"{path}:{lines_of.line(loc)}: {format_loc(loc)}: {msg}"
                                      for loc, msg in unknown))
    return plan


_PYDANTIC_ZH = {
    "int_parsing": "plan.err.int", "int_type": "plan.err.int", "int_from_float": "plan.err.int",
    "float_parsing": "plan.err.number", "float_type": "plan.err.number",
    "bool_parsing": "plan.err.bool", "bool_type": "plan.err.bool", "number_not_bool": "plan.err.number_not_bool",
    "string_type": "plan.err.text", "missing": "plan.err.missing",
    "greater_than_equal": "plan.err.ge", "greater_than": "plan.err.gt",
    "less_than_equal": "plan.err.le", "less_than": "plan.err.lt",
    "enum": "plan.err.choice", "literal_error": "plan.err.choice",
    "plan_reports_too_large": "plan.err.reports_too_large",
    "too_long": "plan.err.too_many_entries",
    "config_too_large": "plan.err.config_too_large",
}
_OWN_WORDS = frozenset({"too_long", "config_too_large"})
"""Kinds said in the app's own words in every language (pydantic's 'List should have at most 500 items after
validation, not 10000' says neither what a line is nor why)."""
_KNOWN_ITEMS = frozenset(ITEM_IDS)


def _pydantic_msg(err: Any, lang: Lang) -> str:
    """pydantic's message in English; in Chinese the common kinds (number, range, choice, missing) translated."""
    if not_finite(err):  # .nan fails every bound: 'should be less than or equal to 1000000000000' misled
        return t("plan.err.finite", lang)
    key = _PYDANTIC_ZH.get(err["type"])
    if key is None or (lang != "zh" and err["type"] not in _OWN_WORDS):
        return str(err["msg"])
    ctx = err.get("ctx") or {}
    fields = {k: ctx.get(k, "") for k in ("ge", "gt", "le", "lt", "expected", "limit", "reports", "max_length",
                                          "actual_length")}
    fields["expected"] = str(fields["expected"]).replace(" or ", " 或 ")
    if err["type"] == "too_long" and fields["actual_length"] is None:  # a mapping: pydantic stops counting
        fields["actual_length"] = len(err["input"]) if hasattr(err.get("input"), "__len__") else "?"
    return t(key, lang, **fields)


def load_plan(path: str | Path, catalog: Catalog | None = None, lang: Lang = "en") -> Plan:
    path = Path(path)
    try:
        text = read_yaml_text(path)  # parsed once, by parse_plan (read_yaml parsed it a second time)
    except YamlError as exc:
        raise PlanError(str(exc)) from None
    return parse_plan(text, path, catalog, lang)


def unknown_references(
    plan: Plan, catalog: Catalog, lang: Lang = "en"
) -> list[tuple[tuple[str | int, ...], str]]:
    """(location, message) for every part id in the plan that the catalog does not know."""
    refs: list[tuple[tuple[str | int, ...], str, str | None]] = [
        (("gpu", "model"), "gpu", plan.gpu.model),
        (("server", "chassis"), "chassis", plan.server.chassis),
        (("server", "cpu"), "cpu", plan.server.cpu),
        (("server", "psu", "part"), "psu", plan.server.psu.part),
        (("software", "os"), "os", plan.software.os),
        (("software", "driver"), "driver", plan.software.driver),
        (("software", "cuda"), "cuda", plan.software.cuda),
        (("software", "framework"), "framework", plan.software.framework),
        (("software", "image"), "image", plan.software.image),
    ]
    if plan.server.memory:
        refs.append((("server", "memory", "part"), "memory", plan.server.memory.part))
    refs += [(("server", "storage", i, "part"), "storage", s.part) for i, s in enumerate(plan.server.storage)]
    refs += [(("server", "nics", i, "part"), "nic", n.part) for i, n in enumerate(plan.server.nics)]
    out = [(loc, t("plan.err.unknown_ref", lang, kind=t(f"plan.kind.{kind}", lang), pid=pid))
           for loc, kind, pid in refs if pid is not None and catalog.get(kind, pid) is None]
    return out + unknown_ids(plan, lang)


def unknown_ids(plan: Plan, lang: Lang = "en") -> list[tuple[tuple[str | int, ...], str]]:
    """(location, message) for a model preset or checklist item id this version does not know: a mistyped
    preset silently turned the VRAM check off. Old preset ids are aliases (procurement.llm.presets)."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    name = plan.requirements.model_preset
    if name and preset(name) is None:
        out.append((("requirements", "model_preset"), t("plan.err.unknown_preset", lang, pid=name)))
    out += [(("checklist", key), t("plan.err.unknown_item", lang, pid=key))
            for key in plan.checklist if key not in _KNOWN_ITEMS]
    return out


register(
    {
        "plan.err.no_schema": "schema_version is missing: add 'schema_version: {v}' as the first line",
        "plan.err.truncated": "the file ends here, without its last line '{end}': it was cut off (a copy or "
                              "download that did not finish, a full disk); open its backup (.bak) or the "
                              "recovery copy instead",
        "plan.err.schema": "schema_version: {got} is not supported (this version reads {v})",
        "plan.err.unknown_field": "unknown field",
        "plan.err.int": "Input should be a valid integer",
        "plan.err.number": "Input should be a valid number",
        "plan.err.bool": "Input should be a valid boolean",
        "plan.err.number_not_bool": "Input should be a number, not true/false",
        "plan.err.finite": "must be a finite number",
        "plan.err.text": "Input should be a valid string",
        "plan.err.missing": "Field required",
        "plan.err.ge": "Input should be greater than or equal to {ge}",
        "plan.err.gt": "Input should be greater than {gt}",
        "plan.err.le": "Input should be less than or equal to {le}",
        "plan.err.lt": "Input should be less than {lt}",
        "plan.err.choice": "Input should be {expected}",
        "plan.err.reports_too_large": (
            "the attached reports hold more than {limit} values ({reports} reports), more than a plan file can hold; "
            "keep the reports as files and merge them with 'verify --merge'"
        ),
        "plan.err.too_many_entries": "{actual_length} entries, more than the {max_length} this list may hold",
        "plan.err.config_too_large": "larger than 1 MiB as JSON: not a model configuration",
        "plan.err.too_many_values": (
            "the plan would hold more than {limit} values, more than a plan file may hold: it would not open "
            "again; remove vendor quote lines, prices or attached reports (keep reports as files and merge them "
            "with 'verify --merge')"
        ),
        "plan.err.unknown_ref": "unknown {kind} '{pid}' (not in the catalog)",
        "plan.err.unknown_preset": "unknown model preset '{pid}' (mistyped?)",
        "plan.err.unknown_item": "unknown checklist item '{pid}'",
        "plan.kind.gpu": "gpu",
        "plan.kind.chassis": "chassis",
        "plan.kind.cpu": "cpu",
        "plan.kind.psu": "psu",
        "plan.kind.os": "os",
        "plan.kind.driver": "driver",
        "plan.kind.cuda": "cuda",
        "plan.kind.framework": "framework",
        "plan.kind.image": "image",
        "plan.kind.memory": "memory",
        "plan.kind.storage": "storage",
        "plan.kind.nic": "nic",
    }
)


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` with the one safe writer (procurement.safe_io.write_file): atomic, through
    symlinks, keeping mode and owner, never over a device; raises safe_io.WriteError (an OSError)."""
    write_file(path, data)


PLAN_FILE_START = "# gpu-procure plan\n"
PLAN_FILE_END = "# end of plan\n"
"""The first and last lines of a plan file the app writes: a file that starts with the first and lacks the
last was cut off (a copy or download that did not finish, a full disk). Without them a plan cut after any
complete line opened silently, its missing sections filled with defaults. Hand-written plans have neither."""


class PlanTooLargeError(WriteError):
    """A plan that, written, would be a file no reader opens (more than MAX_YAML_VALUES values)."""


def plan_file_text(plan: Plan) -> str:
    """What a plan file holds: :func:`dump_plan` between the start and end lines. Raises PlanTooLargeError (an
    OSError, as every failed save) for a plan that would not open again: each list within its cap, a plan could
    still add up past the file's values (10,000 prices and 2,000 offer lines)."""
    text, count = _dump_counted(plan)
    if count > MAX_YAML_VALUES:
        raise PlanTooLargeError(errno.EFBIG, t("plan.err.too_many_values", "en", limit=f"{MAX_YAML_VALUES:,}"))
    return PLAN_FILE_START + text + PLAN_FILE_END


def _check_whole(text: str, path: str | Path, lang: Lang) -> None:
    if text.startswith(PLAN_FILE_START) and not text.endswith(PLAN_FILE_END):
        last = text.count("\n") + (not text.endswith("\n"))
        raise PlanError(f"{path}:{last}: " + t("plan.err.truncated", lang, end=PLAN_FILE_END.strip()))


def save_plan(plan: Plan, path: str | Path, *, expect: FileStamp | None = None, backup: bool = False) -> FileStamp:
    """Save with the safe writer; ``backup`` keeps the previous file as NAME.bak; ``expect`` (the stamp taken
    when the file was opened) raises safe_io.FileChangedError when someone else saved it since. Returns the
    stamp of what was written, for the next save."""
    try:
        data = plan_file_text(plan).encode("utf-8")
    except PlanTooLargeError as exc:
        raise PlanTooLargeError(exc.errno, exc.strerror, str(path)) from None  # named as every failed save
    write_file(path, data, expect=expect, backup=backup)
    stamp = stamp_of(path, data)
    assert stamp is not None
    return stamp


def _split_path(path: str) -> list[str | int]:
    out: list[str | int] = []
    for chunk in path.split("."):
        name, _, rest = chunk.partition("[")
        if name:
            out.append(name)
        while rest:
            idx, _, rest = rest.partition("]")
            out.append(int(idx))
            rest = rest.lstrip("[")
    return out


def get_value(plan: Plan, path: str) -> Any:
    """The value at a dotted plan path such as 'server.storage[0].part' (None where absent)."""
    keys = _split_path(path)
    # only the top-level field asked for is dumped: the whole plan with 160 attached reports took 73 ms
    head = keys[0] if keys and isinstance(keys[0], str) and keys[0] in Plan.model_fields else None
    node: Any = plan.model_dump(mode="json", include={head}) if head else plan_to_data(plan)
    for key in keys:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def with_value(plan: Plan, path: str, value: Any) -> Plan:
    """A new validated Plan with ``value`` at ``path``; raises PlanError naming the field."""
    keys = _split_path(path)
    # the attached reports (validated when attached) are carried over, not dumped and validated again: with 160
    # of them every edit anywhere took 0.28 s
    keep_reports = bool(plan.verification) and keys[:1] != ["verification"]
    data = plan.model_dump(mode="json", exclude={"verification"}) if keep_reports else plan_to_data(plan)
    node: Any = data
    for key in keys[:-1]:
        if isinstance(key, str) and isinstance(node, dict) and node.get(key) is None:
            node[key] = {}
        node = node[key]
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    node[keys[-1]] = value
    try:
        after = Plan.model_validate(data)
    except ValidationError as exc:
        raise PlanError("; ".join(f"{format_loc(tuple(e['loc']))}: {e['msg']}"
                                  for e in exc.errors(include_url=False))) from None
    return after.model_copy(update={"verification": plan.verification}) if keep_reports else after
