"""Pydantic models of everything that can be bought or installed: parts, software and their facts."""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from catalog.compat import StrEnum

Positive = Annotated[float, Field(gt=0)]
PositiveInt = Annotated[int, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]
NonNegativeInt = Annotated[int, Field(ge=0)]
PartId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._+-]*$", max_length=80)]


class Strict(BaseModel):
    # defer_build (on every model of the core): pydantic builds a model's validator on its first use, not when
    # the module is imported. A precompiled catalog (catalog/precompiled.py) is read without validating, so
    # the app builds the part models' validators only for a user catalog: ~100 ms less before it is ready.
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, str_strip_whitespace=True)


# Sanity limits by unit (field-name suffix): a value outside is impossible for any one part, not merely
# unusual. Each is at least 100 times beyond the extremes of the shipped catalog, whose figures carry their
# sources (catalog/data: power 6.2 W to 14 300 W, memory 8-180 GiB, bandwidths 160-7 700 GB/s, 0.25-2 250
# TFLOPS, PCIe lanes 0-128); `memory_gib: 1e9`, `tdp_w: 1e-9` or `1e15` in a user catalog passed before.
IMPOSSIBLE: dict[str, tuple[float, float]] = {
    "_w": (0.01, 2_000_000.0),
    "_gib": (0.01, 100_000.0),
    "_gbs": (0.01, 1_000_000.0),
    "_tflops": (0.0, 1_000_000.0),
    "pcie_lanes": (0.0, 1_024.0),
    "pcie_switch_lanes": (0.0, 16_384.0),
}


def _limits(field: str) -> tuple[float, float] | None:
    return next((v for k, v in IMPOSSIBLE.items() if field.endswith(k)), None)


class Part(Strict):
    """Common to every catalog entry: identity, reference price and where the facts come from."""

    kind: ClassVar[str] = "part"

    id: PartId
    name: str = Field(min_length=1)
    vendor: str = Field(min_length=1)
    price_cny: NonNegative | None = None
    """Reference price; None where no public price was found (the quote then says 询价 / on request)."""
    price_date: dt.date | None = None
    price_source: str | None = None
    price_includes_vat: bool | None = None
    """Whether ``price_cny`` already includes VAT (China retail prices do; list prices usually do not);
    None where the source does not say: the money side then takes the higher reading (VAT added)."""
    price_kind: str | None = None
    """What the price is: 'vendor MSRP', 'retail street price', 'reseller listing', 'press report',
    'company price list'... (a press report is not a quote)."""
    source: str = Field(min_length=3)
    """Datasheet URL or document the numbers come from (reference ids like 'docs/sources.md §G1' allowed)."""
    notes: str = ""

    @field_validator("*", mode="before")
    @classmethod
    def _plausible_number(cls, value: Any, info: ValidationInfo) -> Any:
        """true/false is no number (``pcie_lanes: true`` was one lane); a number outside IMPOSSIBLE is refused."""
        name = info.field_name or ""
        if isinstance(value, bool):
            kinds = str(cls.model_fields[name].annotation) if name in cls.model_fields else ""
            if "bool" not in kinds and ("int" in kinds or "float" in kinds):
                raise ValueError("a number is expected, not true/false")
            return value
        limits = _limits(name)
        if limits is not None and isinstance(value, (int, float)) and math.isfinite(value):  # ∞/NaN: own message
            low, high = limits
            if value > high or 0 < value < low:  # zero and negatives: the field's own bounds say why
                raise ValueError(f"{value:g} is not possible for one part (allowed {low:g} to {high:g})")
        return value


class Segment(StrEnum):
    CONSUMER = "consumer"
    WORKSTATION = "workstation"
    DATACENTER = "datacenter"


class GpuFormFactor(StrEnum):
    PCIE = "pcie"
    SXM = "sxm"


class GpuCooling(StrEnum):
    ACTIVE = "active"  # open-air fans, exhausts into the case
    BLOWER = "blower"  # radial fan, exhausts out of the rear bracket
    PASSIVE = "passive"  # needs chassis airflow built for it
    BASEBOARD = "baseboard"  # SXM module cooled by the HGX baseboard


class GpuAcceptance(BaseModel):
    """Expected results of the acceptance load run (`gpu-procure verify --load`) for one node of this GPU."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    nccl_allreduce_busbw_gbs: Positive | None = None
    """NCCL all_reduce_perf peak bus bandwidth within one 8-GPU node (GB/s)."""
    nvbandwidth_d2d_min_gbs: Positive | None = None
    """nvbandwidth device_to_device_memcpy_read_ce: every GPU pair at least this (GB/s)."""
    source: str
    """Where each figure comes from (a repository file or a public thread)."""


class RackScale(BaseModel):
    """A GPU sold only inside a rack-scale system (GB200/GB300 NVL72): the rack, not a server, is what is bought.
    The app configures servers part by part and cannot build one; a plan of such a GPU is answered with the
    rack's own facts (PCIE-GPU-RACK-SCALE)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    system: str = Field(min_length=1)
    """The rack as the vendor names it ("GB200 NVL72")."""
    gpus_per_rack: PositiveInt
    cpus_per_rack: PositiveInt
    """Grace CPUs in the rack."""
    rack_kw: Positive
    """About how much one rack draws (where the sources disagree, the lowest of them)."""
    rack_kw_max: Positive | None = None
    """Where the sources disagree, the highest figure: both are shown, as a range (None: they agree)."""
    cooling: Literal["liquid"]
    """The NVL72 racks are liquid-cooled; another kind would need its own wording in PCIE-GPU-RACK-SCALE."""
    source: str = Field(min_length=1)


class Gpu(Part):
    kind: ClassVar[str] = "gpu"

    segment: Segment
    architecture: str
    compute_capability: str = Field(pattern=r"^\d+\.\d+$")
    memory_gib: Positive
    memory_type: str
    memory_bandwidth_gbs: Positive | None = None
    fp32_tflops: Positive | None = None
    fp16_tensor_tflops: Positive | None = None
    """Dense FP16/BF16 tensor TFLOPS (FP32 accumulate on GeForce)."""
    bf16: bool | None = None
    """BF16 arithmetic on the tensor cores (compute capability 8.0 and later, docs/sources.md §A3): True/False
    where sourced; None: not known (a plan in pure BF16 then gets VRAM-BF16-UNKNOWN, never silence)."""
    fp64_tflops: NonNegative | None = None
    tdp_w: Positive | None = None
    """None only where no source gives it (the rules then say so and use policy's fallback)."""
    pcie_gen: Annotated[int, Field(ge=1, le=6)]
    pcie_lanes: PositiveInt = 16
    form_factor: GpuFormFactor
    slot_width: Annotated[int, Field(ge=1, le=4)] | None = None
    cooling: GpuCooling | None = None
    nvlink_gbs: NonNegative = 0
    mig_max: NonNegativeInt | None = None
    """MIG instances at most; 0: no MIG (sourced); None: not known."""
    ecc: bool | None = None
    """ECC on the GPU memory: True/False where sourced; None: not known."""
    market: Literal["global", "china"] = "global"
    export_note: str = ""
    """Export-control or market note in English (shown in English text)."""
    export_note_zh: str = ""
    """The same note in Chinese (shown in Chinese text); the shipped catalog gives both (a test checks)."""
    blocked_for_china: bool | None = None
    """True where the export note says the model may not be supplied to China (docs/sources.md "Export-control
    summary"); None: not stated, or "check the current rules" (the GPU choice then excludes nothing for it)."""
    smi_names: list[str] = Field(default_factory=list)
    """Names nvidia-smi prints for this model (used to match a delivered machine to the catalog)."""
    acceptance: GpuAcceptance | None = None
    """Expected load-run results, where a source gives them (None: the load checks say unknown)."""
    rack_scale: RackScale | None = None
    """Set where the GPU is sold only as part of a rack-scale system (None: servers take it)."""

    def export_note_for(self, lang: str) -> str:
        """The export note in the user's language (the other language's only where a user catalog gives one)."""
        if lang == "zh":
            return self.export_note_zh or self.export_note
        return self.export_note or self.export_note_zh

    @property
    def cc_tuple(self) -> tuple[int, int]:
        major, minor = self.compute_capability.split(".")
        return int(major), int(minor)


class Cpu(Part):
    kind: ClassVar[str] = "cpu"

    segment: Segment
    socket: str
    cores: PositiveInt
    threads: PositiveInt | None = None
    base_ghz: Positive | None = None
    boost_ghz: Positive | None = None
    tdp_w: Positive | None = None
    max_power_w: Positive | None = None
    """Highest sustained package power the vendor allows (Intel 'maximum turbo power', AMD PPT) where it is
    above the TDP; the power budget counts this (None: not sourced, the TDP is counted)."""
    pcie_lanes: PositiveInt | None = None
    """Usable PCIe lanes per socket (None where the source does not give a count)."""
    pcie_gen: Annotated[int, Field(ge=1, le=6)]
    memory_channels: PositiveInt
    memory_type: str
    max_memory_mts: PositiveInt | None = None
    max_sockets: PositiveInt | None = 1
    """CPUs of this SKU a board may carry; None where the source does not say (a rule warns, never assumes)."""
    ecc: bool
    oem_only: bool = False
    """Sold only inside an OEM or cloud system (e.g. the DGX's Xeon 8480C): never suggested as a swap."""
    conflicting: list[str] = Field(default_factory=list)
    """Fields whose value the sources disagree on (named in the notes): not used to rank CPUs."""

    @field_validator("conflicting")
    @classmethod
    def _conflicting_names_fields(cls, v: list[str]) -> list[str]:
        unknown = [name for name in v if name not in cls.model_fields]
        if unknown:
            raise ValueError(f"conflicting names no field of a CPU: {', '.join(unknown)}")
        return v


class MemoryModule(Part):
    kind: ClassVar[str] = "memory"

    memory_type: Literal["DDR4", "DDR5"]
    capacity_gib: PositiveInt
    speed_mts: PositiveInt
    ecc: bool
    registered: bool
    power_w: Positive | None = None
    """Maximum power per module; None where no vendor figure was found (rules use the policy fallback)."""


class StorageKind(StrEnum):
    NVME = "nvme"
    SATA_SSD = "sata_ssd"
    HDD = "hdd"


DriveBay = Literal["u2", "e1s", "e3s", "sata", "sata_2.5", "sata_3.5"]
"""What a drive bay (or a board's drive connector) takes: 'u2' a 2.5-inch NVMe drive (U.2/U.3), 'e1s'/'e3s' an
EDSFF NVMe drive, 'sata' a SATA/SAS drive of a size the source does not state (a board's SATA port), 'sata_2.5'
and 'sata_3.5' a SATA/SAS drive of that size."""

DRIVE_FITS_BAY: dict[str, tuple[str, ...]] = {
    "u2": ("u2",),
    "e1s": ("e1s",),
    "e3s": ("e3s",),
    "sata_2.5": ("sata_2.5", "sata"),
    "sata_3.5": ("sata_3.5", "sata"),
}
"""The bays each kind of drive (Storage.bay, M.2 aside) goes into. Not assumed: a U.2 drive in a SATA bay (the
backplane must be wired for NVMe), a SATA drive in a U.2 bay (only tri-mode backplanes take both), a 3.5-inch
drive in a 2.5-inch bay."""


class Storage(Part):
    kind: ClassVar[str] = "storage"

    storage_kind: StorageKind
    capacity_gb: Positive
    interface: str
    form: str
    pcie_lanes: NonNegativeInt = 0
    power_w: Positive | None = None
    """Maximum (active) power; None where no vendor figure was found (rules use the policy fallback)."""

    @property
    def bay(self) -> str:
        """What it plugs into, from its form and interface: 'm2', or a key of DRIVE_FITS_BAY; '' when the form
        names none of them (the bay rules then claim nothing)."""
        form = self.form.lower()
        if "m.2" in form:
            return "m2"
        for mark, bay in (("u.2", "u2"), ("u.3", "u2"), ("e1.s", "e1s"), ("e3.s", "e3s")):
            if mark in form:
                return bay
        if "nvme" in self.interface.lower():
            return ""  # an NVMe drive of another form (an add-in card): no bay
        if "3.5" in form:
            return "sata_3.5"
        return "sata_2.5" if "2.5" in form else ""


class NicAcceptance(BaseModel):
    """Expected results of the acceptance load run across nodes for this adapter."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    nccl_busbw_per_port_gbs: Positive
    """NCCL all_reduce_perf bus bandwidth one port of this adapter carries between nodes (GB/s): a node's
    expectation is the sum over its ports that have this figure."""
    source: str


class Nic(Part):
    kind: ClassVar[str] = "nic"

    speed_gbps: Positive
    ports: PositiveInt
    fabric: Literal["ethernet", "infiniband", "vpi"]
    pcie_gen: Annotated[int, Field(ge=1, le=6)]
    pcie_lanes: PositiveInt
    power_w: Positive | None = None
    """Maximum card power; None where no vendor figure was found (rules use the policy fallback)."""
    acceptance: NicAcceptance | None = None


PsuForm = Literal["atx", "server"]
"""'atx': a desktop ATX unit in the case's PSU bay; 'server': a hot-swap module in a server's PSU bay."""


class Psu(Part):
    kind: ClassVar[str] = "psu"

    form: PsuForm | None = None
    """None: not known (a user catalog may leave it out; the shipped catalog gives it for every PSU)."""
    rated_w_high_line: Positive
    """Output at 200-240 V input."""
    rated_w_low_line: Positive | None = None
    """Output at 100-127 V input; set only when ``low_line`` is 'rated'."""
    low_line: Literal["rated", "unsupported", "unknown"] = "unknown"
    """100-127 V input: 'rated' (output in rated_w_low_line), 'unsupported' (the vendor's input range stops
    at 200 V), 'unknown' (not found in the sources). Defaults to 'rated' when rated_w_low_line is given."""
    rated_w_220_240: Positive | None = None
    """Output at 220-240 V input where the vendor rates it above the 200-240 V figure (Supermicro 2000 W
    Titanium: 2000 W at 220-240 V, 1800 W over 200-240 V); None: the 200-240 V rating applies."""
    efficiency: str | None = None
    """80 PLUS class; None where the vendor's sheet does not state it."""
    systems: list[str] = Field(default_factory=list)
    """Chassis ids whose own PSU module this is (a DGX's or a PowerEdge's power supply, from its user guide):
    it fits those and no other chassis. Empty: a part sold on its own, for any chassis of its form."""

    @model_validator(mode="before")
    @classmethod
    def _low_line_from_rating(cls, data: object) -> object:
        if isinstance(data, dict) and "low_line" not in data and data.get("rated_w_low_line") is not None:
            return {**data, "low_line": "rated"}
        return data

    @model_validator(mode="after")
    def _low_line_consistent(self) -> Psu:
        if (self.low_line == "rated") != (self.rated_w_low_line is not None):
            raise ValueError("low_line: 'rated' goes with a rated_w_low_line figure, and only with it")
        return self


class VendorReference(BaseModel):
    """What the vendor's own reference design of a platform ships or deploys, shown beside a seed rule that
    would flag it (a plan built like the vendor's design sees both figures and both sources)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    memory_gib: Positive | None = None
    """System memory the vendor ships in the platform (DGX B200: 2 TB)."""
    servers_per_rack: PositiveInt | None = None
    """Servers per rack in the vendor's reference data-centre design."""
    rack_cooling: Literal["air", "liquid"] | None = None
    """How that reference rack is cooled."""
    fabric_gbps_per_gpu: Positive | None = None
    """Compute-fabric bandwidth per GPU in the vendor's design (DGX A100: one 200 Gb/s HDR NIC per GPU)."""
    cite: str = Field(min_length=3)
    """A short citation shown in the finding (the document's title)."""
    source: str = Field(min_length=3)
    """Where the figures come from (URL or docs/sources.md reference)."""


class Chassis(Part):
    kind: ClassVar[str] = "chassis"

    reference: VendorReference | None = None
    """The vendor's reference design for this platform, where it publishes one (DGX systems)."""
    psu_power_brake: bool | None = None
    """True where the vendor says the system throttles (power-brakes) its GPUs once more PSUs fail than one,
    instead of carrying full power on the rest (Dell XE9680 3+3 FTR); None: not stated."""

    form: Literal["tower", "rack"]
    rack_units: PositiveInt | None = None
    cpu_socket: str
    cpu_sockets: PositiveInt
    gpu_form_factor: GpuFormFactor
    gpu_slots: NonNegativeInt
    """Double-width GPU positions (for SXM: the baseboard's GPU count)."""
    max_gpu_slot_width: Annotated[int, Field(ge=1, le=4)] | None = None
    max_gpu_tdp_w: Positive | None = None
    """None where the vendor sheet was not retrieved (unknown, never guessed)."""
    passive_gpu_ready: bool
    """Fans and shrouds built to push air through passive data-centre cards."""
    cooling: Literal["air", "liquid"]
    airflow_cfm: Positive | None = None
    fan_redundancy: bool | None = None
    """Redundant (N+1) fans: True/False where the vendor says; None: not known."""
    psu_bays: PositiveInt | None = None
    """None where the vendor sheet was not retrieved (unknown, never guessed)."""
    psu_included: str | None = None
    """Catalog id of the PSU the platform ships with, if any."""
    psu_included_count: NonNegativeInt = 0
    psu_form: PsuForm | None = None
    """The PSU form its bays take ('atx' or 'server'); None: not known."""
    drive_bays: NonNegativeInt | None = None
    """Bays (or, in a tower whose case is not sourced, none known: None) for drives other than M.2."""
    drive_bay_kinds: dict[DriveBay, NonNegativeInt] | None = None
    """What those bays take, by kind (DriveBay), where the vendor says; in a tower the board's drive connectors
    (its SATA ports, a U.2 port) while the case's bays are not known. None: not known."""
    m2_slots: NonNegativeInt | None = None
    """M.2 slots on the board; None: not known."""
    pcie_switch_lanes: NonNegativeInt = 0
    """Downstream lanes provided by PCIe switches for the GPUs (0: GPUs hang off the CPU lanes)."""
    switch_nic_slots: NonNegativeInt = 0
    """NIC slots wired to the GPU-side PCIe switches (an HGX platform's one-NIC-per-GPU slots); NICs up to this
    count do not take CPU lanes."""
    dimm_slots: PositiveInt | None = None
    memory_type: Literal["DDR4", "DDR5"]
    gpus_supported: list[str] = Field(default_factory=list)
    """GPU ids the platform is built for (an HGX baseboard's modules); empty: any GPU of its form factor."""
    baseboard: str | None = None
    """The SXM/OAM baseboard class (catalog/baseboards.py: which modules it takes, whether it has NVSwitch)."""
    max_system_power_w: Positive | None = None
    """The vendor's published maximum input (AC) power of the whole system; None where not published."""
    typical_system_power_w: Positive | None = None
    """The vendor's typical input power, where published."""
    idle_system_power_w: Positive | None = None
    """The vendor's idle input power, where published."""


class OperatingSystem(Part):
    kind: ClassVar[str] = "os"

    family: Literal["ubuntu", "rhel", "rocky", "debian", "sles", "almalinux", "kylin", "openeuler", "uos", "anolis"]
    """The os-release ID (lower case) the verifier compares with the delivered machine's /etc/os-release."""
    version: str
    lts: bool = True
    driver_supported: bool = True
    """Listed in the current NVIDIA driver installation guide."""
    max_cuda: str | None = None
    """Newest CUDA line with packages/images for this OS, where it is capped."""


class DriverBranch(Part):
    kind: ClassVar[str] = "driver"

    branch: str
    version: str = Field(pattern=r"^\d+(\.\d+){1,2}$")
    """The driver version installed when this branch is chosen."""
    datacenter_only: bool = False

    @field_validator("version")
    @classmethod
    def _version_parses(cls, v: str) -> str:
        parse_version(v)
        return v


class CudaRelease(Part):
    kind: ClassVar[str] = "cuda"

    version: str = Field(pattern=r"^\d+\.\d+(\.\d+)?$")
    min_driver_linux: str = Field(pattern=r"^\d+(\.\d+){1,2}$")
    min_cc: str = Field(pattern=r"^\d+\.\d+$")
    max_cc: str = Field(pattern=r"^\d+\.\d+$")
    """Newest compute capability the toolkit compiles for natively."""


# Fields that are written into a generated Dockerfile are checked here, when the catalog loads (a newline in a
# user catalog's image cuda or framework version added a `RUN curl … | sh` line to the Dockerfile).
VERSION_PATTERN = r"^[0-9]+(\.[0-9]+){0,3}([.+-]?[A-Za-z0-9]+){0,3}$"
CUDA_LINE_PATTERN = r"^[0-9]+\.[0-9]+(\.[0-9]+)?$"
_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
IMAGE_REFERENCE_PATTERN = (
    r"^(?:[a-z0-9]+(?:[.-][a-z0-9]+)*(?::[0-9]{1,5})?/)?"  # registry host[:port]/
    + _PATH_COMPONENT + r"(?:/" + _PATH_COMPONENT + r")*"  # repository path, lowercase
    + r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$"
)


class Framework(Part):
    kind: ClassVar[str] = "framework"

    framework: Literal["pytorch", "tensorflow", "jax"]
    version: str = Field(pattern=VERSION_PATTERN)
    """Goes into the generated Dockerfile's pip line: a release number only (no spaces, quotes or newlines)."""
    cuda_versions: list[Annotated[str, Field(pattern=CUDA_LINE_PATTERN)]] = Field(min_length=1)
    """CUDA lines with official builds ("12.1", "11.8")."""
    python: str


class ContainerImage(Part):
    kind: ClassVar[str] = "image"

    reference: str = Field(pattern=IMAGE_REFERENCE_PATTERN)
    """Pull reference, e.g. nvcr.io/nvidia/pytorch:23.05-py3 (Docker's grammar: lowercase repository path)."""
    publisher: str
    trusted: bool
    """Official publisher registry (NVIDIA NGC, Docker Official, a framework's own org)."""
    cuda: str | None = Field(default=None, pattern=CUDA_LINE_PATTERN)
    framework: str | None = None
    """Catalog id of the framework inside, if known."""
    min_driver_linux: str | None = None
    base_os: str | None = None
    python: str | None = None
    bundles_cuda: bool | None = None
    """Whether the image ships the CUDA libraries. ``false`` only where the image's own documentation says it has
    none (a CPU base such as Miniconda or Jupyter's scipy-notebook: CUDA comes from packages installed on top, so no
    CUDA version or driver floor is missing); ``null``: not recorded, and an unrecorded ``cuda`` is then unknown."""
    bundles_framework: bool | None = None
    """Whether the image ships a deep-learning framework. ``false`` only where the image's documentation says it
    has none (NVIDIA's CUDA base images, CPU bases): the Dockerfile installs the plan's framework, pinned, on top;
    ``null``: not recorded, and an unrecorded ``framework`` is then unknown."""

    @model_validator(mode="after")
    def _contents_agree(self) -> ContainerImage:
        if self.bundles_cuda is False and (self.cuda or self.min_driver_linux):
            raise ValueError("bundles_cuda: false, but a cuda version or min_driver_linux is given")
        if self.bundles_framework is False and self.framework:
            raise ValueError("bundles_framework: false, but a framework is given")
        return self


PART_TYPES: tuple[type[Part], ...] = (
    Gpu,
    Cpu,
    MemoryModule,
    Storage,
    Nic,
    Psu,
    Chassis,
    OperatingSystem,
    DriverBranch,
    CudaRelease,
    Framework,
    ContainerImage,
)
KIND_TO_TYPE: dict[str, type[Part]] = {t.kind: t for t in PART_TYPES}
SECTION_TO_KIND: dict[str, str] = {
    "gpus": "gpu",
    "cpus": "cpu",
    "memory": "memory",
    "storage": "storage",
    "nics": "nic",
    "psus": "psu",
    "chassis": "chassis",
    "operating_systems": "os",
    "drivers": "driver",
    "cuda": "cuda",
    "frameworks": "framework",
    "images": "image",
}


def parse_version(text: str) -> tuple[int, ...]:
    """'535.54.03' -> (535, 54, 3); raises ValueError on anything else.

    The one version parser: fields the catalog validates with it always parse; where a text may not be a
    version (user data, a machine's output), use version_or_none and treat None as unknown, never as 0.
    """
    parts = text.strip().split(".")
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a version number: {text!r}")
    return tuple(int(p) for p in parts)


def version_or_none(text: str | None) -> tuple[int, ...] | None:
    """A version tuple, or None where the text is missing or not a version."""
    if not text:
        return None
    try:
        return parse_version(text)
    except ValueError:
        return None
