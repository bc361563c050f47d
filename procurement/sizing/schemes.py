"""The cheapest parallelism scheme that fits: fewest GPUs, then least communication, with its cost in words.

The search tries every tensor-parallel size that divides the GPUs of one node and the attention heads (TP
stays inside a node), every pipeline size that divides the rest, and for training every ZeRO stage over the
data-parallel group; each layout is checked per GPU (``memory.per_gpu``), never against the sum of the GPUs.

Communication per training step and GPU (bytes), by the collectives each scheme runs:
- data parallel / ZeRO-1 / ZeRO-2: a ring all-reduce (or reduce-scatter + all-gather) of the 16-bit
  gradients, 2·Ψ·2 B; ZeRO-3 adds the parameter all-gather in the backward pass, 3·Ψ·2 B (ZeRO §7: 1.5×
  data parallel);
- tensor parallel: two all-reduces of s·b·h 16-bit activations per layer forward and two backward
  (Megatron-LM, Shoeybi et al., arXiv:1909.08053 §3), each 2·(t−1)/t of the tensor;
- pipeline parallel: one activation forward and one gradient backward per micro-batch at each stage edge.
The busiest link sets the time: NVLink (catalog ``nvlink_gbs``, both directions together) or PCIe inside a
node, the network (``network_gbps``) shared by the node's GPUs between nodes. Compute time at the GPU's peak
16-bit tensor rate (6 FLOPs per parameter and token, 8 with recomputation; Korthikanti §5) is the yardstick:
a scheme whose communication takes longer than that is called network- (or link-) bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from procurement.messages import Lang, register, t
from procurement.sizing.memory import (
    SCHEMES,
    Case,
    Parallel,
    PerGpu,
    SchemeName,
    cuda_visible_gb,
    kv_per_token_per_gpu,
    kv_value_bytes,
    per_gpu,
)


@dataclass(frozen=True)
class Cluster:
    """The GPUs a plan buys: memory per GPU (GB), per node, nodes, links and peak rate (None: unknown)."""

    gpu_memory_gb: float
    gpus_per_node: int = 1
    nodes: int = 1
    nvlink_gbs: float = 0.0
    pcie_gbs: float = 31.5
    network_gbps: float | None = None
    """Network between nodes, Gb/s per node."""
    tflops: float | None = None
    p2p: bool = True
    """False on GeForce 40/50 cards: no peer-to-peer, TP traffic goes through host memory."""
    nvlink_domain: int | None = None
    """How many GPUs of a node NVLink joins (None: all of them, as NVSwitch does on SXM boards). PCIe cards
    with bridges are joined in pairs (NVIDIA's NVLink bridge links two boards): traffic among more GPUs than
    that crosses PCIe, and "TP4 over NVLink" on four bridged PCIe cards was wrong."""

    def nvlink_joins(self, gpus: int) -> bool:
        """Whether ``gpus`` GPUs of one node all talk over NVLink."""
        return bool(self.nvlink_gbs) and (self.nvlink_domain is None or gpus <= self.nvlink_domain)

    @property
    def pcie_gpu_gbs(self) -> float:
        """GB/s one GPU sends over PCIe (halved without P2P: through host memory)."""
        return self.pcie_gbs if self.p2p else self.pcie_gbs / 2

    @property
    def gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    @property
    def intra_gbs(self) -> float:
        """GB/s one GPU sends inside the node (NVLink one direction, else PCIe; halved without P2P)."""
        if self.nvlink_gbs:
            return self.nvlink_gbs / 2
        return self.pcie_gbs if self.p2p else self.pcie_gbs / 2

    @property
    def inter_gbs(self) -> float | None:
        if self.network_gbps is None or self.nodes <= 1:
            return None
        return self.network_gbps / 8 / self.gpus_per_node


@dataclass(frozen=True)
class Comm:
    """One step's traffic on the busiest link and how it compares with compute."""

    gb_per_step: float
    link: str
    """'nvlink', 'pcie', 'network', 'none' or 'shape' (unknown: only the parameter count is known)."""
    link_gbs: float | None
    seconds: float | None
    compute_seconds: float | None

    @property
    def bound(self) -> bool | None:
        if self.seconds is None or self.compute_seconds is None:
            return None
        return self.seconds > self.compute_seconds


@dataclass(frozen=True)
class Choice:
    """A layout, its memory on the busiest GPU, whether it fits (with the margin) and its communication."""

    parallel: Parallel
    memory: PerGpu
    with_margin_gb: float
    fits: bool
    comm: Comm

    @property
    def bubble_seconds(self) -> float | None:
        """Pipeline bubble: (PP − 1) / micro-batches of the compute time (Narayanan et al., arXiv:2104.04473
        §2.2), None when the compute time is unknown."""
        if self.parallel.pp == 1:
            return 0.0
        if self.comm.compute_seconds is None:
            return None
        return self.comm.compute_seconds * (self.parallel.pp - 1) / max(self.micro_batches, 1)

    micro_batches: int = 1


@dataclass(frozen=True)
class Search:
    """The scheme the buyer's GPUs should run, and the fewest GPUs of this model that would fit at all."""

    best: Choice | None
    """Cheapest fitting layout over all the plan's GPUs (None: nothing fits)."""
    smallest: Choice
    """The layout with the least memory per GPU (what to show when nothing fits)."""
    gpus_needed: int | None
    """Fewest GPUs (any count up to 64 nodes of this size) that fit; None when even that is not enough."""
    tried: int


@lru_cache(maxsize=4096)
def _divisors(n: int) -> tuple[int, ...]:
    """The divisors of n in ascending order, in O(√n): a count typed into a GPU field can be large."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return tuple(small + [n // d for d in reversed(small) if d * d != n])


def tp_ok(case: Case, tp: int) -> bool:
    """Attention heads split evenly over TP; KV heads split or replicated evenly (vLLM's rule)."""
    m = case.model
    if m.heads % tp:
        return False
    return m.mla or m.kv_heads % tp == 0 or tp % m.kv_heads == 0


def layouts(case: Case, gpus_per_node: int, nodes: int, replicas: bool) -> list[Parallel]:
    """Every layout of the GPUs: TP inside a node, PP up to the layer count, the rest data parallel.
    With ``replicas`` (inference) the data-parallel copies are independent servers."""
    total = gpus_per_node * nodes
    out: list[Parallel] = []
    for tp in _divisors(gpus_per_node):
        if not tp_ok(case, tp):
            continue
        for pp in _divisors(total // tp):
            if case.model.layers and pp > case.model.layers:
                continue
            dp = total // tp // pp
            if not case.training or replicas:
                out.append(Parallel(tp, pp, dp, "dp"))
                continue
            schemes: tuple[SchemeName, ...] = SCHEMES if dp > 1 else ("dp",)
            out += [Parallel(tp, pp, dp, s) for s in schemes]
    return out


def communication(case: Case, par: Parallel, cluster: Cluster) -> Comm:
    """Traffic per step on the busiest link (see the module docstring for the collectives)."""
    m = case.model
    if not m.hidden and (par.tp > 1 or par.pp > 1):  # only the parameter count is known
        return Comm(0.0, "shape", None, None, None)
    params_gpu = m.params / par.tp / par.pp
    bytes_link: dict[str, float] = {"nvlink": 0.0, "pcie": 0.0, "network": 0.0}
    tp_pp = par.tp * par.pp
    # the GPUs of one node that exchange data in this layout: NVLink only when it joins all of them
    intra = "nvlink" if cluster.nvlink_joins(min(tp_pp * par.dp, cluster.gpus_per_node)) else "pcie"
    dp_crosses = cluster.nodes > 1 and par.dp > 1 and tp_pp * par.dp > cluster.gpus_per_node
    pp_crosses = cluster.nodes > 1 and tp_pp > cluster.gpus_per_node
    if case.training and par.dp > 1:
        trainable = (m.lora_params(case.lora_rank, case.lora_targets) / par.tp / par.pp
                     if case.mode in ("lora", "qlora") else params_gpu)
        ring = 2 * (par.dp - 1) / par.dp
        grad = trainable * 2 * ring
        if par.zero >= 3:
            frozen = params_gpu * 2 * (par.dp - 1) / par.dp  # all-gather of the weights forward and backward
            grad = trainable * 2 * (par.dp - 1) / par.dp + 2 * frozen
        bytes_link["network" if dp_crosses else intra] += grad
    micro = 1 if par.pp > 1 else case.batch
    tokens = case.seq * micro
    steps = case.batch if par.pp > 1 else 1
    if par.tp > 1:
        passes = 4 if case.training else 2
        per_layer = passes * 2 * (par.tp - 1) / par.tp * tokens * m.hidden * 2
        bytes_link[intra] += per_layer * math.ceil(m.layers / par.pp) * steps
    if par.pp > 1:
        edge = tokens * m.hidden * 2 * (2 if case.training else 1) / par.tp
        bytes_link["network" if pp_crosses else intra] += edge * steps
    speeds = {"nvlink": cluster.intra_gbs, "pcie": cluster.pcie_gpu_gbs, "network": cluster.inter_gbs}
    worst_link, worst_s, worst_gb = "none", 0.0, 0.0
    unknown = False
    for link, b in bytes_link.items():
        if not b:
            continue
        speed = speeds[link]
        if speed is None:
            unknown = True
            worst_link, worst_gb = link, b / 1e9
            continue
        s = b / 1e9 / speed
        if s >= worst_s:
            worst_link, worst_s, worst_gb = link, s, b / 1e9
    compute = None
    if cluster.tflops:
        flops_per = 8 if case.training and case.recompute else 6 if case.training else 2
        active = m.active_params / par.tp / par.pp
        compute = flops_per * active * case.seq * case.batch / (cluster.tflops * 1e12)
    if unknown and worst_link == "network":
        return Comm(worst_gb, "network", None, None, compute)
    total_gb = sum(bytes_link.values()) / 1e9
    if worst_link == "none":
        return Comm(0.0, "none", None, 0.0, compute)
    return Comm(total_gb if worst_link != "network" else worst_gb, worst_link, speeds[worst_link], worst_s,
                compute)


def _rank(c: Choice) -> tuple[float, float, int, int, int]:
    """Least time lost to communication and the pipeline bubble; unknown network speed ranks last."""
    comm = c.comm.seconds if c.comm.seconds is not None else (1e9 if c.comm.link == "network" else 0.0)
    bubble = c.bubble_seconds
    lost = comm + (bubble if bubble is not None else 0.0)
    return (lost, c.parallel.pp if bubble is None else 0, c.parallel.tp * c.parallel.pp, c.parallel.zero,
            c.parallel.tp)


def _choose(case: Case, cluster: Cluster, margin_pct: float, replicas: bool) -> tuple[list[Choice], int]:
    out = []
    lays = layouts(case, cluster.gpus_per_node, cluster.nodes, replicas)
    for par in lays:
        mem = per_gpu(case, par)
        with_margin = mem.total * (1 + margin_pct / 100)
        fits = with_margin <= cluster.gpu_memory_gb
        out.append(Choice(par, mem, with_margin, fits, communication(case, par, cluster),
                          case.batch if par.pp > 1 else 1))
    return out, len(lays)


@lru_cache(maxsize=256)
def search(case: Case, cluster: Cluster, margin_pct: float) -> Search:
    """The cheapest layout of the cluster's GPUs that fits each GPU (cached per case and cluster).

    Inference over NVLink: the layout that holds the most KV-cache tokens over all the GPUs, as vLLM would
    report them for it: tensor parallel over a node's GPUs keeps one copy of the weights where data-parallel
    copies keep one each, so vLLM run with ``-tp`` over the node holds 2–5× the tokens of single-GPU copies.
    A copy spans several nodes, and uses pipeline stages, only when nothing smaller fits (vLLM's advice:
    tensor parallel inside a node, pipeline parallel across nodes). Over PCIe: the fewest GPUs for one copy,
    the others serving copies of it (tensor-parallel all-reduces over PCIe cost more than they save).
    Training: every GPU takes part; among fitting layouts the least communication time wins, then the
    smaller model-parallel group and the lower ZeRO stage (less to configure)."""
    replicas = not case.training
    choices, tried = _choose(case, cluster, margin_pct, replicas)
    fitting = [c for c in choices if c.fits]
    best: Choice | None = None
    if fitting:
        if replicas and cluster.nvlink_joins(cluster.gpus_per_node):
            per_node = cluster.gpus_per_node

            def nodes_per_copy(c: Choice) -> int:
                return math.ceil(c.parallel.tp * c.parallel.pp / per_node)

            fewest = min((nodes_per_copy(c), c.parallel.pp) for c in fitting)
            fitting = [c for c in fitting if (nodes_per_copy(c), c.parallel.pp) == fewest]
            best = max(fitting, key=lambda c: (_kv_tokens_total(case, c, cluster.gpu_memory_gb),
                                               -c.parallel.tp * c.parallel.pp))
        elif replicas:  # over PCIe the all-reduces cost more than the copies' weights: fewest GPUs per copy
            fewest_gpus = min(c.parallel.tp * c.parallel.pp for c in fitting)
            best = min((c for c in fitting if c.parallel.tp * c.parallel.pp == fewest_gpus), key=_rank)
        else:
            best = min(fitting, key=_rank)
    smallest = min(choices, key=lambda c: (c.memory.total, _rank(c)))
    return Search(best, smallest, _gpus_needed(case, cluster, margin_pct), tried)


def _kv_tokens_total(case: Case, c: Choice, gpu_memory_gb: float) -> int:
    """KV-cache tokens over all copies of the layout, as ``memory.serving`` counts them (0.9 utilisation)."""
    mem = c.memory
    static = mem.weights + mem.activations + mem.overhead - mem.outside_budget
    kv_tok = kv_per_token_per_gpu(case.model, c.parallel, kv_value_bytes(case.kv_precision))
    if not kv_tok:
        return 0
    return max(0, int((cuda_visible_gb(gpu_memory_gb) * 0.9 - static) * 1e9 // kv_tok)) * c.parallel.dp


def _gpus_needed(case: Case, cluster: Cluster, margin_pct: float) -> int | None:
    """Fewest GPUs of this memory that fit: within one node first, then whole nodes of the same size."""
    per_node = cluster.gpus_per_node
    counts = [n for n in range(1, per_node + 1)] + [per_node * k for k in range(2, 65)]
    for n in counts:
        gpn, nodes = (n, 1) if n <= per_node else (per_node, n // per_node)
        for par in layouts(case, gpn, nodes, replicas=True) if not case.training else layouts(case, gpn, nodes,
                                                                                              False):
            if par.gpus != n:
                continue
            if per_gpu(case, par).total * (1 + margin_pct / 100) <= cluster.gpu_memory_gb:
                return n
    return None


def describe(choice: Choice, cluster: Cluster, lang: Lang = "en") -> str:
    """The scheme and its communication cost in words."""
    par, comm = choice.parallel, choice.comm
    label = par.label()
    link = t(f"sizing.link.{comm.link}", lang)
    if comm.link == "none":
        return t("sizing.comm.none", lang, scheme=label)
    if comm.link == "shape":
        return t("sizing.comm.no_shape", lang, scheme=label)
    if comm.seconds is None:
        return t("sizing.comm.unknown", lang, scheme=label, gb=f"{comm.gb_per_step:,.1f}",
                 link=link)
    key = "sizing.comm.bound" if comm.bound else "sizing.comm.ok" if comm.bound is False else "sizing.comm.plain"
    if comm.link == "network" and comm.bound:
        key = "sizing.comm.network_bound"
    return t(key, lang, scheme=label, gb=f"{comm.gb_per_step:,.1f}", link=link,
             gbs=f"{comm.link_gbs:,.1f}", s=f"{comm.seconds:,.2f}",
             compute=f"{comm.compute_seconds:,.2f}" if comm.compute_seconds is not None else "?",
             gbps=f"{(cluster.network_gbps or 0):g}")


register(
    {
        "sizing.link.nvlink": "NVLink",
        "sizing.link.pcie": "PCIe",
        "sizing.link.network": "the network between nodes",
        "sizing.link.none": "none",
        "sizing.link.shape": "unknown",
        "sizing.comm.no_shape": (
            "{scheme}: without the layers and hidden size the traffic between GPUs cannot be estimated."
        ),
        "sizing.comm.none": "{scheme}: no traffic between GPUs.",
        "sizing.comm.unknown": (
            "{scheme}: about {gb} GB per GPU per step over {link}; the network speed is unknown, so whether it is "
            "network-bound is not known."
        ),
        "sizing.comm.plain": "{scheme}: about {gb} GB per GPU per step over {link} ({gbs} GB/s), about {s} s.",
        "sizing.comm.ok": (
            "{scheme}: about {gb} GB per GPU per step over {link} ({gbs} GB/s), about {s} s, less than the {compute} s "
            "of compute at the peak rate."
        ),
        "sizing.comm.bound": (
            "{scheme}: about {gb} GB per GPU per step over {link} ({gbs} GB/s), about {s} s, more than the {compute} s "
            "of compute at the peak rate: it will be bound by {link}."
        ),
        "sizing.comm.network_bound": (
            "{scheme} over {gbps} Gb/s will be network-bound: about {gb} GB per GPU per step, about {s} s, more than "
            "the {compute} s of compute at the peak rate."
        ),
    }
)
