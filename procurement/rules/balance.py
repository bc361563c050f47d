"""Balance rules: CPU cores and RAM for the GPUs, ECC, NVMe for data, network fabric, memory population.

Ratios (policy choices, docs/sources.md §S, in the policy): CPU cores ≥ 2 × GPUs, system RAM ≥
2 × total GPU memory, multi-node training on a ≥ 100 Gb/s fabric, single node 10 GbE. ECC for training
and NVMe for training data are the reference's qualitative rules. Memory types, DIMM slots and channels
come from the catalog.
"""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import Cpu, StorageKind
from procurement.budgets.balance import balance_needs
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan, StorageRole, Workload
from procurement.policy import Policy
from procurement.rules.base import TRAINING_WORKLOADS, join_names, make, resolve, server_empty
from procurement.rules.registry import rule

FAMILY: Family = "balance"
DATA_WORKLOADS = (*TRAINING_WORKLOADS, Workload.DATA_ANALYSIS)


@rule(FAMILY, "BALANCE-CPU-CORES", step=3, item="cpu_cores")
def cpu_cores(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-CPU-CORES: CPU cores × sockets below cpu_cores_per_gpu × GPUs."""
    p = resolve(plan, catalog)
    if p.cpu is None or p.gpu is None or not p.gpu_count:
        return []
    needs = balance_needs(plan, catalog, policy, p)
    cores, need = needs.cores, needs.cores_needed
    if cores is None or cores >= need:
        return []
    return [
        make(
            "BALANCE-CPU-CORES",
            Severity.WARNING,
            ("server.cpu", "server.cpu_count"),
            cores=cores,
            need=f"{need:g}",
            gpus=p.gpu_count,
            ratio=f"{policy.cpu_cores_per_gpu:g}",
        )
    ]


@rule(FAMILY, "BALANCE-RAM", step=3, item="ram")
def ram_ratio(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-RAM: system RAM below ram_to_vram_ratio × total GPU memory."""
    p = resolve(plan, catalog)
    if p.gpu is None or not p.gpu_count:
        return []
    needs = balance_needs(plan, catalog, policy, p)
    vram, need = needs.vram_gib or 0.0, needs.ram_needed_gib or 0.0
    ram = needs.ram_gib or 0
    if ram >= need or (p.memory is None and plan.server.memory is not None):
        return []  # an unknown module id is reported by the plan loader, not here
    if p.memory is None:  # nothing chosen: say so, not "System RAM is 0 GiB"
        return [make("BALANCE-RAM", Severity.INFO if server_empty(plan) else Severity.WARNING,
                     ("server.memory.part", "server.memory.count"), variant="none", need=f"{need:g}",
                     vram=f"{vram:g}", ratio=f"{policy.ram_to_vram_ratio:g}")]
    ref = p.chassis.reference if p.chassis is not None else None
    if ref is not None and ref.memory_gib is not None and ram >= ref.memory_gib and vram:
        # the vendor's own design ships less than the seed's ratio: show both, not an unexplained warning
        return [make("BALANCE-RAM", Severity.INFO, ("server.memory.count", "server.memory.part"),
                     variant="reference", ram=f"{ram:g}", need=f"{need:g}", vram=f"{vram:g}",
                     ratio=f"{policy.ram_to_vram_ratio:g}", chassis=p.chassis.name if p.chassis else "",
                     vendor_ram=f"{ref.memory_gib:g}", vendor_ratio=f"{ref.memory_gib / vram:.2f}", cite=ref.cite)]
    return [
        make(
            "BALANCE-RAM",
            Severity.WARNING,
            ("server.memory.count", "server.memory.part"),
            ram=f"{ram:g}",
            need=f"{need:g}",
            vram=f"{vram:g}",
            ratio=f"{policy.ram_to_vram_ratio:g}",
        )
    ]


@rule(FAMILY, "BALANCE-ECC", step=3, item="ram")
def ecc(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-ECC: training on memory or a CPU without ECC."""
    if plan.requirements.workload not in TRAINING_WORKLOADS:
        return []
    p = resolve(plan, catalog)
    out = []
    if p.memory is not None and not p.memory.ecc:
        out.append(("server.memory.part", p.memory.name))
    if p.cpu is not None and not p.cpu.ecc:
        out.append(("server.cpu", p.cpu.name))
    if not out:
        return []
    return [
        make(
            "BALANCE-ECC",
            Severity.WARNING,
            tuple(f for f, _ in out),
            parts=join_names((n for _, n in out)),
        )
    ]


@rule(FAMILY, "BALANCE-NVME-DATA", "BALANCE-DATA-CAPACITY", step=3, item="storage_nvme")
def nvme_data(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-NVME-DATA (training data not on NVMe) and BALANCE-DATA-CAPACITY (data drives smaller than the
    dataset)."""
    req = plan.requirements
    if req.workload not in DATA_WORKLOADS:
        return []
    p = resolve(plan, catalog)
    if not plan.server.storage:
        if req.dataset_gb > 0:
            return [
                make(
                    "BALANCE-DATA-CAPACITY",
                    Severity.INFO if server_empty(plan) else Severity.WARNING,
                    ("server.storage",),
                    variant="none",
                    need=f"{req.dataset_gb:g}",
                )
            ]
        return []
    data = [s for s in p.storage if s.item.role in (StorageRole.DATA, StorageRole.SCRATCH)]
    out = []
    if not any(s.part.storage_kind == StorageKind.NVME for s in data):
        out.append(make("BALANCE-NVME-DATA", Severity.WARNING, ("server.storage",)))
    capacity = sum(s.part.capacity_gb * s.item.count for s in data)
    if req.dataset_gb > capacity:
        out.append(
            make(
                "BALANCE-DATA-CAPACITY",
                Severity.WARNING,
                ("server.storage", "requirements.dataset_gb"),
                have=f"{capacity:g}",
                need=f"{req.dataset_gb:g}",
            )
        )
    return out


@rule(FAMILY, "BALANCE-FABRIC", "BALANCE-NIC", step=3, item="network")
def fabric(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-FABRIC (multi-node training without a ≥ min_fabric_gbps NIC) and BALANCE-NIC (a single node
    without a ≥ single_node_nic_gbps NIC, info)."""
    req = plan.requirements
    p = resolve(plan, catalog)
    fastest = max((n.part.speed_gbps for n in p.nics if n.count), default=0.0)
    if req.nodes > 1 and req.workload in TRAINING_WORKLOADS:
        if fastest >= policy.min_fabric_gbps:
            return []  # per-GPU rails: BALANCE-FABRIC-RAILS
        none = not any(n.count for n in p.nics)
        return [
            make(
                "BALANCE-FABRIC",
                Severity.INFO if none and server_empty(plan) else Severity.ERROR,
                ("server.nics", "requirements.nodes"),
                variant="none" if none else None,
                nodes=req.nodes,
                have=f"{fastest:g}",
                need=f"{policy.min_fabric_gbps:g}",
            )
        ]
    if (
        req.nodes == 1
        and req.deployment == "datacenter"
        and plan.gpu.count
        and fastest < policy.single_node_nic_gbps
    ):
        return [
            make(
                "BALANCE-NIC",
                Severity.INFO,
                ("server.nics",),
                variant="none" if not any(n.count for n in p.nics) else None,
                have=f"{fastest:g}",
                need=f"{policy.single_node_nic_gbps:g}",
            )
        ]
    return []


@rule(FAMILY, "BALANCE-FABRIC-RAILS", "BALANCE-FABRIC-AFFINITY", step=3, item="network")
def rails(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-FABRIC-RAILS: multi-node training whose compute fabric gives each GPU fewer NICs or less
    bandwidth than the policy's rail-optimised reference (one 400 Gb/s NIC per GPU, NVIDIA HGX 2-8-9-400 and
    DGX H100/B200), a warning naming both figures and the reference; and where the chassis says how many NICs
    sit behind the GPUs' PCIe switches (``switch_nic_slots``), the fabric NICs beyond them hang off the CPU
    root ports, away from the GPUs (an info). Only where BALANCE-FABRIC passes (a NIC of min_fabric_gbps)."""
    p = resolve(plan, catalog)
    fastest = max((n.part.speed_gbps for n in p.nics if n.count), default=0.0)
    if plan.requirements.nodes <= 1 or plan.requirements.workload not in TRAINING_WORKLOADS \
            or fastest < policy.min_fabric_gbps:
        return []
    needs = balance_needs(plan, catalog, policy, p)
    per_gpu, gbps = needs.fabric_nics_per_gpu, needs.fabric_gbps_per_gpu
    if per_gpu is None or gbps is None:
        return []
    out: list[Finding] = []
    short_nics = per_gpu + 1e-9 < policy.fabric_nics_per_gpu
    short_bw = gbps + 1e-9 < policy.fabric_gbps_per_gpu
    kw = dict(nodes=plan.requirements.nodes, nics=needs.fabric_nics, count=needs.gpu_count,
              per_gpu=f"{per_gpu:.2g}", gbps=f"{gbps:.0f}", ref_nics=f"{policy.fabric_nics_per_gpu:g}",
              ref_gbps=f"{policy.fabric_gbps_per_gpu:g}",
              need=max(1, round(policy.fabric_nics_per_gpu * needs.gpu_count)))
    ref = p.chassis.reference if p.chassis is not None else None
    if (short_nics or short_bw) and ref is not None and ref.fabric_gbps_per_gpu is not None \
            and not short_nics and gbps + 1e-9 >= ref.fabric_gbps_per_gpu:
        # the vendor's own design for this platform: both figures side by side, not an unexplained warning
        out.append(make("BALANCE-FABRIC-RAILS", Severity.INFO, ("server.nics", "requirements.nodes"),
                        variant="reference", chassis=p.chassis.name if p.chassis else "",
                        vendor_gbps=f"{ref.fabric_gbps_per_gpu:g}", cite=ref.cite, **kw))
    elif short_nics or short_bw:
        out.append(make("BALANCE-FABRIC-RAILS", Severity.WARNING, ("server.nics", "requirements.nodes"),
                        **kw))
    ch = p.chassis
    want = round(policy.fabric_nics_per_gpu * needs.gpu_count)
    if ch is not None and 0 < ch.switch_nic_slots < min(want, needs.fabric_nics):
        out.append(make("BALANCE-FABRIC-AFFINITY", Severity.INFO, ("server.nics", "server.chassis"),
                        chassis=ch.name, slots=ch.switch_nic_slots, nics=min(want, needs.fabric_nics),
                        extra=min(want, needs.fabric_nics) - ch.switch_nic_slots))
    return out


@rule(FAMILY, "BALANCE-MEMORY-TYPE", "BALANCE-DIMM-SLOTS", "BALANCE-MEMORY-CHANNELS", step=3, item="ram")
def memory_fit(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-MEMORY-TYPE (DDR4/DDR5 mismatch with board or CPU), BALANCE-DIMM-SLOTS (more DIMMs than slots),
    BALANCE-MEMORY-CHANNELS (DIMMs not a multiple of channels × sockets: uneven bandwidth, info)."""
    p = resolve(plan, catalog)
    m = p.memory
    if m is None or not p.memory_count:
        return []
    out = []
    fields = ("server.memory.part",)
    if p.chassis is not None and m.memory_type != p.chassis.memory_type:
        out.append(
            make(
                "BALANCE-MEMORY-TYPE",
                Severity.ERROR,
                (*fields, "server.chassis"),
                module=m.name,
                type=m.memory_type,
                other=p.chassis.name,
                other_type=p.chassis.memory_type,
            )
        )
    elif p.cpu is not None and m.memory_type not in p.cpu.memory_type.upper():
        out.append(
            make(
                "BALANCE-MEMORY-TYPE",
                Severity.ERROR,
                (*fields, "server.cpu"),
                module=m.name,
                type=m.memory_type,
                other=p.cpu.name,
                other_type=p.cpu.memory_type,
            )
        )
    if p.chassis is not None and p.chassis.dimm_slots is not None and p.memory_count > p.chassis.dimm_slots:
        out.append(
            make(
                "BALANCE-DIMM-SLOTS",
                Severity.ERROR,
                ("server.memory.count", "server.chassis"),
                count=p.memory_count,
                slots=p.chassis.dimm_slots,
                chassis=p.chassis.name,
            )
        )
    if p.cpu is not None and p.cpu_count:
        channels = p.cpu.memory_channels * p.cpu_count
        if p.memory_count % channels:
            out.append(
                make(
                    "BALANCE-MEMORY-CHANNELS",
                    Severity.INFO,
                    ("server.memory.count",),
                    count=p.memory_count,
                    channels=channels,
                )
            )
    return out


@rule(FAMILY, "BALANCE-SINGLE-THREAD", step=3, item="cpu_cores")
def single_thread(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BALANCE-SINGLE-THREAD: a CPU for the same socket with at least as many cores and a higher boost clock
    exists in the catalog (data loading is often single-thread bound; info). OEM-only parts (``oem_only``)
    and boost clocks the sources disagree on (``conflicting``) are left out."""
    if plan.requirements.workload not in DATA_WORKLOADS or not plan.gpu.count:
        return []
    p = resolve(plan, catalog)
    cpu = p.cpu
    if cpu is None or cpu.boost_ghz is None or "boost_ghz" in cpu.conflicting:
        return []  # a boost clock the sources disagree on is no basis for a comparison
    better = [
        c
        for c in catalog.all(Cpu)
        if not c.oem_only  # a DGX/cloud-only SKU cannot be bought on its own
        and "boost_ghz" not in c.conflicting
        and c.socket == cpu.socket
        and c.max_sockets is not None and c.max_sockets >= p.cpu_count
        and c.cores >= cpu.cores
        and c.boost_ghz is not None
        and c.boost_ghz > cpu.boost_ghz
    ]
    if not better:
        return []
    best = max(better, key=lambda c: (c.boost_ghz or 0, c.cores))
    return [
        make(
            "BALANCE-SINGLE-THREAD",
            Severity.INFO,
            ("server.cpu",),
            cpu=cpu.name,
            ghz=f"{cpu.boost_ghz:g}",
            other=best.name,
            other_ghz=f"{best.boost_ghz:g}",
        )
    ]



register(
    {
        "BALANCE-CPU-CORES.message": plural(
            "{cores} CPU cores for {gpus} GPU; at least {need} are advised ({ratio} per GPU).",
            "{cores} CPU cores for {gpus} GPUs; at least {need} are advised ({ratio} per GPU).",
            "gpus",
        ),
        "BALANCE-CPU-CORES.fix": "Choose a CPU with more cores, or add a second CPU.",
        "BALANCE-RAM.message": "System RAM is {ram} GiB, below {ratio} × the {vram} GiB of GPU memory ({need} GiB).",
        "BALANCE-RAM.message.none": (
            "No system memory chosen yet; {ratio} × the {vram} GiB of GPU memory ({need} GiB) is advised."
        ),
        "BALANCE-RAM.fix.none": "Choose memory of at least {need} GiB, or use auto-configure.",
        "BALANCE-DATA-CAPACITY.message.none": "No data drives chosen yet for the {need} GB dataset.",
        "BALANCE-DATA-CAPACITY.fix.none": "Add NVMe data drives holding at least {need} GB, or use auto-configure.",
        "BALANCE-FABRIC.message.none": (
            "No NIC chosen yet; training across {nodes} nodes needs an InfiniBand or RoCE fabric of at least {need} "
            "Gb/s."
        ),
        "BALANCE-NIC.message.none": "No NIC chosen yet; a single server should have at least {need} GbE.",
        "BALANCE-RAM.fix": "Add memory to at least {need} GiB.",
        "BALANCE-RAM.message.reference": (
            "System RAM {ram} GiB is below this policy's {ratio} × GPU memory ({need} GiB for {vram} GiB), but it "
            "is what the vendor's reference design ships: {chassis} has {vendor_ram} GiB, {vendor_ratio} × its GPU "
            "memory ({cite})."
        ),
        "BALANCE-RAM.fix.reference": (
            "Keep the vendor's configuration, or add memory to {need} GiB if the data pipeline needs it "
            "(ram_to_vram_ratio is a policy choice, docs/sources.md §S)."
        ),
        "BALANCE-ECC.message": "Training should run on ECC memory; no ECC on: {parts}.",
        "BALANCE-ECC.fix": "Choose an ECC-capable CPU platform and ECC (RDIMM) memory.",
        "BALANCE-NVME-DATA.message": "No NVMe data drive: training data on SATA or HDD keeps the GPUs waiting.",
        "BALANCE-NVME-DATA.fix": "Add an NVMe drive with the data role.",
        "BALANCE-DATA-CAPACITY.message": "Data drives hold {have} GB, less than the {need} GB dataset.",
        "BALANCE-DATA-CAPACITY.fix": "Add data drives or larger ones.",
        "BALANCE-FABRIC.message": (
            "Training across {nodes} nodes needs an InfiniBand or RoCE fabric of at least {need} Gb/s; the fastest NIC "
            "is {have} Gb/s."
        ),
        "BALANCE-FABRIC.fix": "Add 100-400 Gb/s InfiniBand or RoCE NICs.",
        "BALANCE-FABRIC-RAILS.message": plural(
            (
                "{nodes} nodes train over {nics} fabric NICs for {count} GPU: {per_gpu} NIC and {gbps} Gb/s per GPU, "
                "below the rail-optimised reference of {ref_nics} NIC and {ref_gbps} Gb/s per GPU (NVIDIA HGX "
                "2-8-9-400; DGX H100/B200: eight ConnectX-7 for the compute fabric)."
            ),
            (
                "{nodes} nodes train over {nics} fabric NICs for {count} GPUs: {per_gpu} NIC and {gbps} Gb/s per GPU, "
                "below the rail-optimised reference of {ref_nics} NIC and {ref_gbps} Gb/s per GPU (NVIDIA HGX "
                "2-8-9-400; DGX H100/B200: eight ConnectX-7 for the compute fabric)."
            ),
            "count",
        ),
        "BALANCE-FABRIC-RAILS.fix": (
            "Give every GPU its own fabric NIC ({need} of {ref_gbps} Gb/s), or lower fabric_nics_per_gpu and "
            "fabric_gbps_per_gpu in the policy for a job that does not need it."
        ),
        "BALANCE-FABRIC-RAILS.message.reference": (
            "The compute fabric gives each GPU {per_gpu} NIC and {gbps} Gb/s, below this policy's {ref_nics} NIC and "
            "{ref_gbps} Gb/s per GPU (the HGX 2-8-9-400 reference), but as the vendor designed this platform: "
            "{chassis} has {vendor_gbps} Gb/s per GPU ({cite})."
        ),
        "BALANCE-FABRIC-RAILS.fix.reference": (
            "Keep the vendor's fabric, or choose a newer platform if the job needs {ref_gbps} Gb/s per GPU "
            "(fabric_gbps_per_gpu in the policy)."
        ),
        "BALANCE-FABRIC-AFFINITY.message": (
            "{chassis} seats {slots} NICs behind the GPUs' PCIe switches: {extra} of the {nics} compute-fabric NICs "
            "hang off the CPU root ports, away from their GPUs (GPUDirect RDMA then crosses the CPU)."
        ),
        "BALANCE-FABRIC-AFFINITY.fix": "Choose a chassis with a NIC slot beside every GPU, or accept the longer path.",
        "BALANCE-NIC.message": "A single server should have at least {need} GbE; the fastest NIC is {have} Gb/s.",
        "BALANCE-NIC.fix": "Add a 10 GbE or faster NIC.",
        "BALANCE-MEMORY-TYPE.message": "{module} is {type}; {other} takes {other_type}.",
        "BALANCE-MEMORY-TYPE.fix": "Choose memory of the type the board and CPU take.",
        "BALANCE-DIMM-SLOTS.message": plural(
            "{count} DIMM do not fit the {slots} DIMM slots of {chassis}.",
            "{count} DIMMs do not fit the {slots} DIMM slots of {chassis}.",
            "count",
        ),
        "BALANCE-DIMM-SLOTS.fix": "Use larger modules so fewer are needed.",
        "BALANCE-MEMORY-CHANNELS.message": plural(
            "{count} DIMM are not a multiple of the {channels} memory channels: uneven population lowers bandwidth.",
            "{count} DIMMs are not a multiple of the {channels} memory channels: uneven population lowers bandwidth.",
            "count",
        ),
        "BALANCE-MEMORY-CHANNELS.fix": "Install DIMMs in multiples of the channel count.",
        "BALANCE-SINGLE-THREAD.message": (
            "Data loading is often single-thread bound: {cpu} boosts to {ghz} GHz; {other} on the same socket reaches "
            "{other_ghz} GHz."
        ),
        "BALANCE-SINGLE-THREAD.fix": "For heavy preprocessing, consider the higher-clocked CPU.",
    }
)
