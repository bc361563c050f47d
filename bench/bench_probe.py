"""Benchmark: the standalone probe and the judge (issue: collect on the node, judge in the app).

1. Size of gpu-procure-probe.pyz (target < 200 KB).
2. The probe's run time on the 8-GPU capture without load, against `nvidia-smi -q -x` itself, both through a
   fake nvidia-smi that replays the capture (target within 2x; the fake answers at once, so what is left is the
   probe's own cost: the interpreter start and the other programs it runs).
3. Judging one node's raw facts (8 GPUs), against a baseline measured in the same run: reading its JSON and
   parsing its XML with the C parser, which any judge has to do.
4. `gpu-procure judge` of N node files, for N = 256 .. 2,048: judged reports (read + merge, the old
   `verify --merge` case, target < 2 s at 2,048) and raw facts (judge each node + merge); the time per node
   at 2,048 against that at 256 shows whether it stays linear. Medians of --scale-runs runs.
Run: python bench/bench_probe.py [--nodes 2048] [--raw-nodes 2048] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _util import median_ms  # noqa: E402

from catalog.loader import Catalog, load_catalog  # noqa: E402
from procurement.plan import Plan, load_plan  # noqa: E402
from procurement.probe import bundle  # noqa: E402
from procurement.probe.nodes import cyclic_gc_paused, read_node, read_nodes  # noqa: E402
from procurement.verify.collect import raw as rawmod  # noqa: E402
from procurement.verify.merge import merge_reports  # noqa: E402
from procurement.verify.report import write_report  # noqa: E402

FIX = REPO / "tests" / "fixtures" / "nvidia-smi"
CAPTURE = FIX / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml"
TOPO = FIX / "topo-m_8x-h100-NV18_spaces.txt"
NVLINK = FIX / "report_4x-a100-sxm4-80gb_580.105.08_csv-topo-nvlink.txt"
"""The only captured `nvidia-smi nvlink -s` (4x A100, 12 links each): replayed for `nvlink`, so the judge
parses an output of the real size and shape (the fake used to print the 212 KB XML for it)."""
PLAN = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"
SIZE_KB, RATIO, JUDGE_S = 200, 2.0, 2.0


def fake_smi(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    smi = directory / "nvidia-smi"
    nvlink = directory / "nvlink-s.txt"
    text = NVLINK.read_text(encoding="utf-8")
    nvlink.write_text(text[text.index("--- nvlink\n") + len("--- nvlink\n"):], encoding="utf-8")
    smi.write_text(f'#!/bin/sh\nif [ "$1" = "topo" ]; then cat {shlex.quote(str(TOPO))}; exit 0; fi\n'
                   f'if [ "$1" = "nvlink" ]; then cat {shlex.quote(str(nvlink))}; exit 0; fi\n'
                   f"cat {shlex.quote(str(CAPTURE))}\n")
    smi.chmod(0o755)
    return smi


def node_files(tmp: Path, raw_doc: dict, n: int, judged: bool) -> list[Path]:
    """n distinct nodes (host name, machine-id, GPU serials and UUIDs) from one real probe run."""
    cat = load_catalog()
    plan = load_plan(PLAN, cat)
    out = tmp / ("judged" if judged else "raw")
    out.mkdir(exist_ok=True)
    xml = raw_doc["commands"]["nvidia_smi_q"]["stdout"]
    template = None
    if judged:
        template = read_nodes([tmp / "node.json"], plan, cat, "en")[0][0]
    paths = []
    for i in range(n):
        host = f"gpu{i:04d}"
        p = out / f"{host}.json"
        if judged:
            assert template is not None
            rep = template.model_copy(deep=True)
            rep.host.hostname = host
            for g in rep.gpus:
                g.serial, g.uuid = f"{g.serial}-{i}", f"{g.uuid}-{i}"
            write_report(rep, p)
        else:
            doc = dict(raw_doc)
            doc["files"] = dict(raw_doc["files"], **{"/proc/sys/kernel/hostname": host + "\n"})
            cmds = dict(raw_doc["commands"])
            cmds["nvidia_smi_q"] = dict(cmds["nvidia_smi_q"], stdout=xml.replace("</serial>", f"-{i}</serial>")
                                        .replace("</uuid>", f"-{i}</uuid>"))
            doc["commands"] = cmds
            p.write_text(json.dumps(doc))
        paths.append(p)
    return paths


def judge_seconds(paths: list[Path], plan: Plan, cat: Catalog) -> tuple[float, float]:
    """`gpu-procure judge` of the files without the printing: read (judging raw facts) and merge.
    (wall seconds, CPU seconds of this process): on a shared, loaded machine the CPU time is what the
    judge itself costs, the wall time also what the other processes took from it."""
    start, cpu = time.perf_counter(), time.process_time()
    reports, sources, errors = read_nodes(paths, plan, cat, "en")
    with cyclic_gc_paused():  # as run_judge does
        merged = merge_reports(reports, plan, "en", sources)
    took, cpu_took = time.perf_counter() - start, time.process_time() - cpu
    assert not errors and len(merged.nodes) == len(paths)
    return took, cpu_took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=2048)
    ap.add_argument("--raw-nodes", type=int, default=2048, help="largest raw-facts run (each node is judged)")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--scale-runs", type=int, default=3, help="runs of each cluster size (median taken)")
    ap.add_argument("--judge-only", action="store_true", help="only the judge figures (3 and 4)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    opts = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        pyz = bundle.write_pyz(tmp)
        size_kb = pyz.stat().st_size / 1024
        print(f"probe size       gpu-procure-probe.pyz                 : {size_kb:7.1f} KB   (target < {SIZE_KB} KB)")
        ok &= size_kb < SIZE_KB

        smi = fake_smi(tmp / "bin")
        if opts.judge_only:  # one probe run for the node files, nothing measured
            opts.runs = 1
        # the system interpreter, as on a target machine (a pyenv shim would add its own start-up)
        python = next((p for p in ("/usr/bin/python3", "/usr/local/bin/python3") if os.access(p, os.X_OK)),
                      shutil.which("python3") or sys.executable)
        env = dict(os.environ, PATH=f"{smi.parent}:{os.environ.get('PATH', '')}", LANG="C")
        alone = median_ms(lambda: subprocess.run([str(smi), "-q", "-x"], capture_output=True, check=True),
                          opts.runs, warmup=1)
        probe = median_ms(lambda: subprocess.run([python, str(pyz), "-q", "-o", str(tmp / "node.json")],
                                                 env=env, capture_output=True, check=True), opts.runs, warmup=1)
        doc = json.loads((tmp / "node.json").read_text())
        print(f"nvidia-smi -q -x (fake, replaying 8x H100 capture)   : {alone:7.1f} ms median")
        print(f"probe, no load ({python}, same fake nvidia-smi)       : {probe:7.1f} ms median"
              f"   ratio {probe / alone:5.1f}x  (target {RATIO:g}x of a real nvidia-smi)")
        print(f"                 programs run: {len(doc['commands'])}, raw JSON {len(json.dumps(doc)) // 1024} KB")
        # where the probe's time goes: the same collector in this process, each program timed
        ran: list[tuple[str, float]] = []

        def timed(argv: list[str], limit: float) -> dict[str, object]:
            start = time.perf_counter()
            res = rawmod.run_command(argv, limit)
            words = [Path(str(argv[0])).name]
            words += [a if len(a) < 30 and "\n" not in a else "…" for a in map(str, argv[1:3])]
            ran.append((" ".join(words), time.perf_counter() - start))
            return res

        saved_path = os.environ["PATH"]
        os.environ["PATH"] = env["PATH"]
        try:
            start = time.perf_counter()
            rawmod.collect(run=timed, timeout=30)  # type: ignore[arg-type]
            whole = time.perf_counter() - start
        finally:
            os.environ["PATH"] = saved_path
        smi_runs = [(a, t) for a, t in ran if Path(a.split()[0]).name == "nvidia-smi"]
        print(f"                 collector in-process {whole * 1000:.0f} ms: {len(ran)} programs "
              f"{sum(t for _, t in ran) * 1000:.0f} ms, of them nvidia-smi {len(smi_runs)} times "
              f"({', '.join(a.split(' ', 1)[1] for a, _ in smi_runs)}) "
              f"{sum(t for _, t in smi_runs) * 1000:.0f} ms; the programs run one after another")
        slowest = sorted(ran, key=lambda x: -x[1])[:3]
        print("                 slowest: " + ", ".join(f"{a} {t * 1000:.0f} ms" for a, t in slowest))

        cat = load_catalog()
        plan = load_plan(PLAN, cat)
        raw = tmp / "node.json"
        xml = doc["commands"]["nvidia_smi_q"]["stdout"]
        one = median_ms(lambda: read_node(raw, plan, cat, "en"), opts.runs * 5, warmup=2)
        floor = median_ms(lambda: (json.loads(raw.read_text(encoding="utf-8")), ET.fromstring(xml)),
                          opts.runs * 5, warmup=2)
        print(f"judge one raw node (8 GPUs, read + judge)             : {one:7.2f} ms median")
        print(f"baseline: read its JSON + C-parse its XML, nothing else: {floor:7.2f} ms median"
              f"   ratio {one / floor:5.2f}x")

        for judged in (True, False):
            label = "judged reports" if judged else "raw facts     "
            top = opts.nodes if judged else min(opts.nodes, opts.raw_nodes)
            sizes = sorted({max(1, top // 8), max(1, top // 4), max(1, top // 2), top})
            times, cpu = {}, {}
            for n in sizes:
                paths = node_files(tmp, doc, n, judged)
                runs = [judge_seconds(paths, plan, cat) for _ in range(opts.scale_runs)]
                times[n] = statistics.median(w for w, _ in runs)
                cpu[n] = statistics.median(c for _, c in runs)
            line = ", ".join(f"{n}: {times[n]:.2f} s (CPU {cpu[n]:.2f} s)" for n in sizes)
            per = {n: times[n] / n * 1000 for n in sizes}
            extra = "" if top == opts.nodes else f", so {opts.nodes} nodes ~{per[top] * opts.nodes / 1000:.0f} s"
            print(f"judge {label} {line}   ({per[top]:.2f} ms per node{extra}; per node at {top} / at "
                  f"{sizes[0]}: {per[top] / per[sizes[0]]:.2f}, 1.00 is linear)")
            print(f"      load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            ok &= times[top] < JUDGE_S if judged else True
    print("targets: " + ("met" if ok else "MISSED (see above)"))
    return 0 if ok or not opts.check else 1


if __name__ == "__main__":
    sys.exit(main())
