"""Round 2: the defect classes of the hostile-input issue attacked again, through the real entry point
(`python -m gpu_procure`) where the earlier tests went in-process, and from the angles they left out: a
handover's setup.sh really run (in a private mount namespace), the alert rules' host regex evaluated by
Prometheus' own engine, FIFOs and /dev/zero in directories, duplicate keys spelt with JSON escapes, hostile
names printed through the commands into PDFs read back with pdftotext, and 252-255-byte plan names."""

from __future__ import annotations

import json
import os
import secrets
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from catalog.loader import load_catalog
from procurement.handover.generate import NodeFacts, build_handover
from procurement.plan import load_plan, save_plan
from procurement.policy import default_policy
from procurement.safe_io import backup_path
from procurement.verify.report import GpuRecord, report_to_dict
from tests.conftest import EXAMPLES, REPO
from tests.deploy.helpers import cluster_plan
from tests.hardening.test_reader_bounds import run_cli
from tests.procurement.handover.test_handover import gpu_uuid, node_report, promtool_test
from tests.procurement.handover.test_handover_hostile import dry_run, hostile_catalog, payloads, tool
from tests.procurement.verify.conftest import write_exe

ENV = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
GOOD = "gpu-02.cluster.local"


def gp(*argv: str | Path, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """The installed entry point's module, as a user runs it; a hang is a TimeoutExpired (a failure)."""
    return subprocess.run(
        [sys.executable, "-m", "gpu_procure", *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
    )


# -- 1. handover: hostile UUIDs, host names, catalog source, plan title, image; setup.sh really run ----------


def _sandboxed_run(tmp_path: Path, script: Path) -> subprocess.CompletedProcess[str]:
    """``bash -x setup.sh`` for real (not --dry-run), as root of a private mount namespace whose /etc (where
    every file the script writes goes) is a fresh tmpfs, and nothing on PATH but a few coreutils and fake
    nvidia-smi, docker, systemctl and hostname that log their argv one word a line; prints the unit file it
    wrote. If the tmpfs cannot be mounted the script is not run (and the test fails)."""
    fakes, base = tmp_path / "sandbox-fakes", tmp_path / "base"
    log = tmp_path / "argv.log"
    for exe in ("nvidia-smi", "docker", "systemctl"):
        write_exe(fakes, exe, f'printf "%s\\n" "{exe}" "$@" "--" >> {log}\n')
    write_exe(fakes, "hostname", f"echo {GOOD}\n")
    base.mkdir()
    for exe in ("bash", "id", "dirname", "mkdir", "chmod", "mv", "cat"):
        (base / exe).symlink_to(shutil.which(exe))  # type: ignore[arg-type]
    inner = (
        f"mount -t tmpfs none /etc && PATH={fakes}:{base} bash -x {script}; rc=$?; "
        "cat /etc/systemd/system/gpu-procure-power-limits.service; exit $rc"
    )
    return subprocess.run(
        ["unshare", "--map-root-user", "--mount", "--propagation", "private", "bash", "-c", inner],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )


def test_handover_through_the_entry_point_runs_no_injected_command_dry_or_for_real(tmp_path: Path) -> None:
    marker = tmp_path / f"pwned_{secrets.token_hex(4)}"
    bad = payloads(marker)  # newline+EOF, $(...), backticks, quotes, CR, ExecStartPre=, a line continuation
    catalog = hostile_catalog(tmp_path, "docs/sources.md" + "".join(bad))  # overlay in tmp_path/user-catalog
    plan_path = cluster_plan(tmp_path, nodes=4)
    plan = load_plan(plan_path, catalog)
    save_plan(plan.model_copy(update={"title": "cluster" + bad[0] + bad[7]}), plan_path)
    plan = load_plan(plan_path, catalog)
    good = node_report(plan, GOOD)  # the plan's 8 GPUs: GPU-COUNT's pass agrees with the list
    nodes = [good]
    for i, p in enumerate(bad):
        uuid_node = node_report(plan, f"gpu{10 + i}")
        uuid_node.gpus[1] = GpuRecord(index=1, name="NVIDIA H100 80GB HBM3", uuid=gpu_uuid("z", i) + p)
        nodes += [uuid_node, node_report(plan, "gpu03" + p)]
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "cluster.json").write_text(json.dumps({"nodes": [report_to_dict(r) for r in nodes]}))
    image = f"nvcr.io/nvidia/k8s/dcgm-exporter:3.3; touch {marker} #"
    out = tmp_path / "handover"
    done = gp(
        "--catalog",
        tmp_path / "user-catalog",
        "handover",
        plan_path,
        reports,
        out,
        "--dcgm-exporter-image",
        image,
        "--lang",
        "en",
        timeout=60,
    )
    assert "Traceback" not in done.stderr and done.returncode == 1, (done.returncode, done.stderr[-2000:])
    scripts = sorted(out.rglob("setup.sh"))
    assert [s.parent.name for s in scripts] == [GOOD]
    script = scripts[0]
    text = script.read_text()
    assert "docs/sources.md" in text and "cluster" in text  # the free text is there, as comments
    for line in text.splitlines():  # every line holding payload text is a comment or one quoted word
        if "touch" in line:
            assert line.startswith("#") or line.strip().startswith(shlex.quote(image) + " "), line
    assert not marker.exists()
    res = dry_run(tmp_path, text)  # bash -n, shellcheck -S warning, then --dry-run with logging fakes
    assert res.returncode == 0, res.stderr
    assert not marker.exists()
    if subprocess.run(["unshare", "--map-root-user", "--mount", "true"], capture_output=True).returncode != 0:
        pytest.skip("no private mount namespace here: the dry run above is the check")
    real = _sandboxed_run(tmp_path, script)
    assert real.returncode == 0, real.stderr[-3000:]
    assert f"setup.sh: {GOOD} done" in real.stdout  # it ran to its end
    assert not marker.exists()
    traced = [ln for ln in real.stderr.splitlines() if ln.startswith("+")]
    assert not [ln for ln in traced if ln.lstrip("+ ").startswith(("touch", "/bin/touch"))], traced
    assert [ln for ln in real.stdout.splitlines() if ln.startswith("Exec")] == [
        f"ExecStart=/usr/bin/env nvidia-smi -i {gpu_uuid(GOOD, i)} -pl 700" for i in range(8)
    ]
    calls = (tmp_path / "argv.log").read_text().split("\n--\n")
    docker_run = next(c.split("\n") for c in calls if c.startswith("docker\nrun"))
    assert image in docker_run  # the whole hostile image reference reached docker as one word
    for name in ("prometheus.yml", "gpu-procure-alerts.yml"):
        check = "config" if name == "prometheus.yml" else "rules"
        res = subprocess.run(
            [tool("promtool"), "check", check, str(out / "prometheus" / name)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert res.returncode == 0, res.stdout + res.stderr


# -- 2. host names with `-` and `.` in the alert rules: valid, and the regex matches exactly them --------------

HOSTS = [GOOD, "10.0.0.5", "GPU_03.Rack-1.example", "n" + "a" * 61 + "z", "a.b-c.d"]
LOOKALIKES = ["gpu-02Xcluster.local", "10a0b0c5", "GPU_03XRack-1.example", "b.b-c.d", "gpu-02.cluster.local.x"]


def test_the_slowdown_rule_matches_exactly_the_dotted_and_dashed_hosts(tmp_path: Path) -> None:
    catalog = load_catalog()
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    h = build_handover([NodeFacts(node_report(plan, n, n=1), n, [89]) for n in HOSTS], plan, catalog, default_policy())
    assert h.accepted == HOSTS
    rules = h.files["prometheus/gpu-procure-alerts.yml"]
    (tmp_path / "rules.yml").write_text(rules)
    res = subprocess.run(
        [tool("promtool"), "check", "rules", str(tmp_path / "rules.yml")], capture_output=True, text=True, timeout=30
    )
    assert res.returncode == 0, res.stdout + res.stderr

    def series(host: str) -> dict[str, str]:
        return {
            "series": f'DCGM_FI_DEV_GPU_TEMP{{job="gpu-procure-dcgm",instance="{host}:9400",gpu="0"}}',
            "values": "90x10",
        }

    def alert(host: str) -> dict[str, object]:
        return {
            "exp_labels": {"severity": "critical", "job": "gpu-procure-dcgm", "instance": f"{host}:9400", "gpu": "0"},
            "exp_annotations": {
                "summary": f"GPU 0 on {host}:9400 at its slowdown temperature",
                "description": "90 °C reaches the 89 °C slowdown threshold nvidia-smi reported for this GPU: "
                "the clocks are being cut. Cooling fault or blocked airflow.",
            },
        }

    res = promtool_test(
        tmp_path,
        rules,
        [
            {
                "interval": "1m",
                "input_series": [series(x) for x in HOSTS + LOOKALIKES],
                "alert_rule_test": [
                    {
                        "eval_time": "5m",
                        "alertname": "GpuAtSlowdownTemperature89",
                        "exp_alerts": [alert(x) for x in HOSTS],
                    }
                ],
            }
        ],
    )
    assert res.returncode == 0, res.stdout + res.stderr  # a look-alike firing (an unescaped `.`) fails here


# -- 3. bounded readers: a FIFO and /dev/zero, as files and inside a directory, through the entry point -------


@pytest.fixture(scope="module")
def bad_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad")
    shutil.copy(EXAMPLES / "llm-cluster-node.gpuplan.yaml", d / "plan.gpuplan.yaml")
    os.mkfifo(d / "fifo.json")
    os.mkfifo(d / "fifo.csv")
    (d / "zero.csv").symlink_to("/dev/zero")
    for name, kind in (("fifo-dir", "fifo"), ("zero-dir", "zero")):
        (d / name).mkdir()
        if kind == "fifo":
            os.mkfifo(d / name / "node.json")
        else:
            (d / name / "node.json").symlink_to("/dev/zero")
    return {"dir": d, "plan": d / "plan.gpuplan.yaml"}


def _bounded_cases(f: dict[str, Path], kind: str) -> dict[str, tuple[list[str], str]]:
    """command -> (argv, the file the refusal must name)."""
    d, plan = f["dir"], str(f["plan"])
    bad = str(d / "fifo.json") if kind == "fifo" else "/dev/zero"
    csv = str(d / f"{kind}.csv")
    folder = d / f"{kind}-dir"
    return {
        "quote import FILE": (["quote", "import", "--vendor", "v", plan, csv], csv),
        "handover REPORT": (["handover", plan, bad, str(d / f"out-{kind}-1")], bad),
        # a directory stands for its regular *.json files: the FIFO or device in it is passed over unopened
        "handover DIR": (["handover", plan, str(folder), str(d / f"out-{kind}-2")], str(folder)),
        "judge DIR": (["judge", "--plan", plan, str(folder)], str(folder)),
        "verify --hostfile": (["verify", "--load", "quick", "--hostfile", bad, "--json", str(d / "r.json")], bad),
        "sign --key": (["sign", "--kind", "approval", "--name", "x", "--key", bad, plan], bad),
        "size --config": (["size", "--config", bad], bad),
    }


@pytest.mark.parametrize("kind", ["fifo", "zero"])
@pytest.mark.parametrize("command", list(_bounded_cases({"dir": Path("d"), "plan": Path("p")}, "fifo")))
def test_a_fifo_or_dev_zero_is_a_clear_exit_2_within_seconds(
    bad_inputs: dict[str, Path], command: str, kind: str
) -> None:
    argv, named = _bounded_cases(bad_inputs, kind)[command]
    before = bad_inputs["plan"].read_bytes()
    started = time.monotonic()
    done = gp(*argv, "--lang", "en")
    assert time.monotonic() - started < 10
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2, (done.returncode, done.stdout[-1000:], done.stderr[-1000:])
    assert Path(named).name in done.stderr, done.stderr  # (quote import names the file by its name only)
    assert bad_inputs["plan"].read_bytes() == before  # sign and quote import left the plan alone
    assert not list(bad_inputs["dir"].glob("out-*"))  # no handover folder for nothing


# -- 4. duplicate keys: plain, spelt with a JSON escape, nested in a cluster report, in a size config -------


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("dup")
    plan_path = cluster_plan(d, nodes=2)
    plan = load_plan(plan_path)
    text = json.dumps(report_to_dict(node_report(plan, "gpu01")), indent=1)
    (d / "good.json").write_text(text)
    (d / "plain.json").write_text(text.replace('"host": {', '"host": {\n"hostname": "evil",', 1))
    (d / "escaped.json").write_text(text[:-1] + ',\n "h\\u006fst": {"hostname": "evil"}}')
    second = report_to_dict(node_report(plan, "gpu02"))
    cluster = json.dumps({"nodes": [json.loads(text), second]}, indent=1)
    (d / "nested.json").write_text(cluster.replace('"uuid": ', '"uuid": "GPU-x", "uuid": ', 1))
    return {"dir": d, "plan": plan_path}


@pytest.mark.parametrize(("name", "key"), [("plain", "hostname"), ("escaped", "host"), ("nested", "uuid")])
@pytest.mark.parametrize("command", ["judge", "verify --merge", "handover"])
def test_a_duplicate_key_in_a_report_is_exit_2_naming_it(
    judged: dict[str, Path], command: str, name: str, key: str
) -> None:
    d, plan, bad = judged["dir"], str(judged["plan"]), str(judged["dir"] / f"{name}.json")
    out = d / f"out-{command.split()[0]}-{name}"
    argv = {
        "judge": ["judge", "--plan", plan, bad],
        "verify --merge": ["verify", "--plan", plan, "--merge", bad],
        "handover": ["handover", plan, bad, str(out)],
    }[command]
    rc, said = run_cli([*argv, "--lang", "en"])
    assert rc == 2, (rc, said[-1500:])
    assert f"{bad}" in said and f"{key}: the key is given twice" in said, said
    assert not out.exists()


def test_a_duplicate_report_next_to_a_good_one_is_named_and_gets_no_setup_script(judged: dict[str, Path]) -> None:
    d = judged["dir"]
    out = d / "mixed"
    rc, said = run_cli(
        ["handover", str(judged["plan"]), str(d / "plain.json"), str(d / "good.json"), str(out), "--lang", "en"]
    )
    assert rc == 1, said  # docs/handover.md: 1 when an input was unreadable
    assert "plain.json:9: hostname: the key is given twice" in said, said
    assert [p.name for p in (out / "nodes").iterdir()] == ["gpu01"]
    assert "evil" not in "".join(p.read_text() for p in out.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"hidden_size": 4096, "rope_scaling": {"factor": 8.0,\n "factor": 32.0}}', "factor"),
        ('{"hidden_size": 4096,\n "hidden_\\u0073ize": 8192}', "hidden_size"),
        ('{"num_hidden_layers": 32, "num_hidden_layers": 32}', "num_hidden_layers"),  # even the same value
    ],
)
def test_a_duplicate_key_in_a_size_config_is_exit_2_naming_it(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(text)
    done = gp("size", "--config", path, "--lang", "en")
    assert "Traceback" not in done.stderr and done.returncode == 2, (done.returncode, done.stderr[-1500:])
    assert str(path) in done.stderr and f"{key}: the key is given twice" in done.stderr, done.stderr


# -- 5. CR, LF and ESC in node and vendor names, through the commands, read back with pdftotext ----------------

HOSTILE = "Acme\r\nFAKE: all passed\x1b[2J\rFAKE2\n\x1b]0;t\x07"


def _pdftotext(path: Path) -> list[str]:
    out = subprocess.run(
        [tool("pdftotext"), "-layout", str(path), "-"], capture_output=True, text=True, timeout=30, check=True
    ).stdout
    assert "\x1b" not in out and "\r" not in out
    return out.splitlines()


def _no_line_starts_with_fake(lines: list[str]) -> None:
    assert not [ln for ln in lines if ln.lstrip().startswith("FAKE")], [ln for ln in lines if "FAKE" in ln]
    assert any("FAKE" in ln for ln in lines)  # printed, escaped, on the name's own line


def test_a_hostile_vendor_name_stays_on_its_line_in_the_comparison_and_quote(tmp_path: Path) -> None:
    from tests.procurement.budgets.test_cost_one_bill import EAST, NORTH

    plan = tmp_path / "p.gpuplan.yaml"
    save_plan(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml"), plan)
    for name, vendor, text in (("east", HOSTILE, EAST), ("north", "North", NORTH)):
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
        rc, said = run_cli(
            ["quote", "import", str(plan), str(tmp_path / f"{name}.csv"), "--vendor", vendor, "--lang", "en"]
        )
        assert rc == 0, said
        assert "\x1b" not in said and "\nFAKE" not in said
    rc, said = run_cli(["quote", "choose", str(plan), HOSTILE, "--lang", "en"])
    assert rc == 0, said
    rc, said = run_cli(
        [
            "export",
            str(plan),
            "--comparison",
            str(tmp_path / "c.pdf"),
            "--quote",
            str(tmp_path / "q.pdf"),
            "--lang",
            "en",
        ]
    )
    assert rc in (0, 1, 3), said
    # the name typed with line breaks and escapes is stored as one line of text: nothing in it can break a line
    stored = [q.vendor for q in load_plan(plan).vendor_quotes]
    assert stored == ["Acme FAKE: all passed[2J FAKE2 ]0;t", "North"], stored
    for pdf in ("c.pdf", "q.pdf"):
        joined = " ".join(" ".join(_pdftotext(tmp_path / pdf)).split())
        assert stored[0] in joined or stored[0].replace(" ", "") in joined.replace(" ", ""), pdf


def test_a_hostile_node_name_stays_on_its_line_in_the_cluster_pdf(tmp_path: Path) -> None:
    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path)
    for i, host in enumerate(("gpu01", "node" + HOSTILE)):
        (tmp_path / f"n{i}.json").write_text(json.dumps(report_to_dict(node_report(plan, host))))
    pdf = tmp_path / "cluster.pdf"
    rc, said = run_cli(
        [
            "judge",
            "--plan",
            str(plan_path),
            "--pdf",
            str(pdf),
            str(tmp_path / "n0.json"),
            str(tmp_path / "n1.json"),
            "--lang",
            "en",
        ]
    )
    assert pdf.exists(), (rc, said[-1500:])
    assert "\x1b" not in said
    _no_line_starts_with_fake(_pdftotext(pdf))


# -- 6. plan and PDF names of 241-255 bytes --------------------------------------------------------------------

LONG = {"241": "q" * 237 + ".pdf", "255": "q" * 251 + ".pdf", "255-cjk": "报" * 83 + "xy.pdf"}


@pytest.mark.parametrize("size", list(LONG))
def test_export_and_plan_writes_take_names_up_to_255_bytes(tmp_path: Path, size: str) -> None:
    pdf = LONG[size]
    plan = tmp_path / (pdf[:-5] + ".yaml")  # as long as the PDF's name
    assert len(os.fsencode(pdf)) == (241 if size == "241" else 255)
    save_plan(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"), plan)
    rc, said = run_cli(["export", str(plan), "--quote", str(tmp_path / pdf), "--lang", "en"])
    assert rc in (0, 1, 3) and (tmp_path / pdf).read_bytes().startswith(b"%PDF-"), said
    rc, said = run_cli(["export", str(plan), "--quote", str(tmp_path / pdf), "--issue", "--lang", "en"])
    assert rc in (0, 1, 3) and "Traceback" not in said, said  # --issue saves the plan under its long name
    rc, said = run_cli(["sign", "--kind", "approval", "--name", "Long-name signer", str(plan), "--lang", "en"])
    assert rc == 0, said
    assert "- name: Long-name signer" in plan.read_text()  # sign saved the plan under its long name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([pdf, plan.name])  # no temporary left


def test_saving_a_plan_of_a_253_byte_name_keeps_the_previous_file(tmp_path: Path) -> None:
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml")
    target = tmp_path / ("p" * 240 + ".gpuplan.yaml")
    save_plan(plan.model_copy(update={"title": "first"}), target, backup=True)
    save_plan(plan.model_copy(update={"title": "second"}), target, backup=True)  # the window's save
    assert load_plan(target).title == "second"
    kept = [p for p in tmp_path.iterdir() if p != target]
    assert [p.name for p in kept] == [Path(backup_path(target)).name]  # the name shortened to take ".bak"
    assert kept[0].name.endswith(".bak") and len(kept[0].name.encode()) == 255
    assert load_plan(kept[0]).title == "first"
    # a 255-byte name of Chinese characters: cut at a character boundary, never half a character
    wide = tmp_path / ("方" * 85)  # 3 bytes each
    save_plan(plan.model_copy(update={"title": "first"}), wide, backup=True)
    save_plan(plan.model_copy(update={"title": "second"}), wide, backup=True)
    bak = Path(backup_path(wide))
    assert bak.name == "方" * 83 + ".bak" and load_plan(bak).title == "first"
