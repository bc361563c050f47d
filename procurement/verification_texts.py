"""Chinese and English text of the verification checks, faults, progress steps and tables."""

from __future__ import annotations

from procurement.messages import plural, register

register(
    {
        "verify.status.pass": "PASS",
        "verify.status.fail": "FAIL",
        "verify.status.warn": "WARN",
        "verify.status.skip": "SKIP",
        "verify.status.unknown": "UNKNOWN",
        "verify.col.check": "Check",
        "verify.col.status": "Status",
        "verify.col.expected": "Expected",
        "verify.col.actual": "Actual",
        "verify.col.gpu": "GPU",
        "verify.col.name": "Name",
        "verify.col.memory": "Memory",
        "verify.col.pcie": "PCIe now/max",
        "verify.col.power": "Power limit",
        "verify.col.persist": "Persist",
        "verify.col.ecc": "ECC",
        "verify.col.temp": "Temp",
        "verify.col.mig": "MIG",
        "verify.col.catalog": "Catalog part",
        "verify.col.node": "Node",
        "verify.col.gpus": "GPUs",
        "verify.col.driver": "Driver",
        "verify.col.cuda": "CUDA",
        "verify.col.result": "Result",
        "verify.col.counts": "pass/fail/warn/unknown/skip",
        "verify.header.host": plural(
            "Host {hostname}: {os}, kernel {kernel}; CPU {cpu} ({sockets} socket, {#cores}); memory {memory} GiB",
            "Host {hostname}: {os}, kernel {kernel}; CPU {cpu} ({sockets} sockets, {#cores}); memory {memory} GiB",
            "sockets",
        ),
        "verify.header.host#cores": plural("{cores} core", "{cores} cores", "cores"),
        "verify.header.driver": plural(
            "Driver {driver}, CUDA {cuda}, {n} GPU",
            "Driver {driver}, CUDA {cuda}, {n} GPUs",
            "n",
        ),
        "verify.summary": plural(
            "Result: {passed} passed, {failed} failed, {warned} warning, {unknown} unknown, {skipped} skipped",
            "Result: {passed} passed, {failed} failed, {warned} warnings, {unknown} unknown, {skipped} skipped",
            "warned",
        ),
        "verify.error": "Nothing could be verified: {error}",
        "verify.written": "Report written to {path}",
        "verify.no_plan": "No plan given: inventory and health checks only.",
        "verify.plan_error": "Cannot read the plan: {error}",
        "verify.write_error": "Cannot write the report {path}: {error}",
        "verify.step.smi": "Reading nvidia-smi",
        "verify.step.topo": "Reading the GPU topology",
        "verify.step.host": "Checking CPU, memory, disks and network",
        "verify.step.software": "Checking CUDA, containers and frameworks",
        "verify.step.bench": "Running the benchmark",
        "verify.step.checks": "Comparing with the plan",
        "verify.step.done": "Done",
        "verify.cancelled": "Verification cancelled",
        "verify.smi.pass": plural(
            "nvidia-smi answered: driver {driver}, {n} GPU.",
            "nvidia-smi answered: driver {driver}, {n} GPUs.",
            "n",
        ),
        "verify.smi.missing": (
            "nvidia-smi was not found ({where}): the NVIDIA driver is not installed. Install the planned driver and "
            "run again."
        ),
        "verify.smi.not_run": "nvidia-smi could not be started: {detail}",
        "verify.smi.exit": "nvidia-smi exited with code {code}: \"{text}\". {hint}",
        "verify.smi.partial": "nvidia-smi reported an error: \"{text}\". {hint}",
        "verify.smi.timeout": (
            "nvidia-smi did not answer within {timeout} s and was stopped; a GPU or the driver may be hung (look for "
            "Xid errors in `dmesg`)."
        ),
        "verify.smi.garbage": "nvidia-smi printed something that is not a usable XML report: {reason}.",
        "verify.smi.left_running": plural(
            (
                "nvidia-smi exited, but a process it left behind kept its output open and was stopped; its report "
                "({n} GPU) may be incomplete. Check what runs as nvidia-smi here (`type nvidia-smi`: a wrapper "
                "script?)."
            ),
            (
                "nvidia-smi exited, but a process it left behind kept its output open and was stopped; its report "
                "({n} GPUs) may be incomplete. Check what runs as nvidia-smi here (`type nvidia-smi`: a wrapper "
                "script?)."
            ),
            "n",
        ),
        "verify.smi.left_running_empty": (
            "nvidia-smi exited without a usable XML report ({reason}), and a process it left behind kept its output "
            "open and was stopped. Check what runs as nvidia-smi here (`type nvidia-smi`: a wrapper script?)."
        ),
        "verify.smi.cancelled": "Cancelled; nvidia-smi was stopped.",
        "verify.smi.hint.no_driver": (
            "The driver's kernel module is not loaded (not rebuilt after a kernel update, or blocked by Secure Boot): "
            "check `lsmod | grep nvidia` and `dmesg`."
        ),
        "verify.smi.hint.no_devices": (
            "The driver sees no GPU: check that the GPUs are seated and powered (`lspci | grep -i nvidia`) and that "
            "the container or Slurm job was given GPUs."
        ),
        "verify.smi.hint.mismatch": (
            "The loaded kernel module and the user-space library differ (driver updated without a reboot): reboot the "
            "host."
        ),
        "verify.smi.hint.device": (
            "A GPU failed to initialise (fell off the bus or needs a reset): look for Xid errors in `dmesg`, reseat or "
            "replace that GPU ({bus})."
        ),
        "verify.smi.hint.other": "Look at `dmesg` and the driver installation log.",
        "verify.gpu_visible.pass": plural("nvidia-smi reports all {n} GPU.", "nvidia-smi reports all {n} GPUs.", "n"),
        "verify.gpu_visible.fail": plural(
            (
                "The driver counts {attached} GPU attached but reports only {n}: a GPU fell off the bus or cannot be "
                "reached."
            ),
            (
                "The driver counts {attached} GPUs attached but reports only {n}: a GPU fell off the bus or cannot be "
                "reached."
            ),
            "attached",
        ),
        "verify.gpu_model.pass": "Every GPU is the planned {part}.",
        "verify.gpu_model.fail": "{gpus} is not the planned {part}.",
        "verify.gpu_model.none": "No GPU was found.",
        "verify.gpu_model.no_names": "The catalog has no nvidia-smi names for {part}; compare the model by eye.",
        "verify.gpu_model.unknown": "{gpus}: the model is not in the catalog.",
        "verify.gpu_model.mixed": "This machine mixes GPU models.",
        "verify.gpu_model.inventory": "GPU inventory.",
        "verify.gpu_count.pass": plural("{n} GPU, as planned.", "{n} GPUs, as planned.", "n"),
        "verify.gpu_count.duplicate_uuid": plural(
            (
                "The report lists {n} GPU but only {distinct} are distinct: UUID {uuids} appears more than once (an "
                "edited or replayed report)."
            ),
            (
                "The report lists {n} GPUs but only {distinct} are distinct: UUID {uuids} appears more than once (an "
                "edited or replayed report)."
            ),
            "n",
        ),
        "verify.gpu_count.fewer": (
            "Only {n} of the {want} planned GPUs were found: check for a missing card, one that fell off the bus, or "
            "GPUs hidden by cgroups/Slurm."
        ),
        "verify.gpu_count.more": plural(
            "{n} GPU found, more than the {want} planned.",
            "{n} GPUs found, more than the {want} planned.",
            "n",
        ),
        "verify.gpu_count.no_plan": plural(
            "{n} GPU found (no plan to compare).",
            "{n} GPUs found (no plan to compare).",
            "n",
        ),
        "verify.gpu_memory.pass": plural(
            "All {n} GPU read have their rated memory.",
            "All {n} GPUs read have their rated memory.",
            "n",
        ),
        "verify.gpu_memory.fail": (
            "{gpus} has less memory than the model's rating: a smaller-memory variant may have been delivered."
        ),
        "verify.gpu_memory.skip": "No catalog memory size to compare with.",
        "verify.pcie.skip": "nvidia-smi reports no PCIe link (virtual GPU or not supported).",
        "verify.pcie_width.pass": plural(
            "All {n} GPU run at their full link width.",
            "All {n} GPUs run at their full link width.",
            "n",
        ),
        "verify.pcie_width.fail": (
            "Link narrower than it should be: {which}. Check the slot, the riser and the BIOS lane bifurcation; if the "
            "GPU was idle when measured, an idle link slows down to save power, which is normal; recheck under load: "
            "while a job runs, watch the current link with `nvidia-smi -q -d PCIE` or `nvidia-smi dmon -s t`."
        ),
        "verify.pcie_gen.pass": plural(
            "All {n} GPU run at their top PCIe generation.",
            "All {n} GPUs run at their top PCIe generation.",
            "n",
        ),
        "verify.pcie_gen.idle": (
            "Current link below its maximum: {which}. An idle link slows down to save power, which is normal; recheck "
            "under load: while a job runs, watch the current link with `nvidia-smi -q -d PCIE` or `nvidia-smi dmon -s "
            "t`. If it stays low under load, check the slot and BIOS settings."
        ),
        "verify.pcie_gen.fail": (
            "The link cannot reach the GPU's PCIe generation: {which}. The slot, riser or BIOS limits it."
        ),
        "verify.persistence.pass": "Persistence mode is on for every GPU.",
        "verify.persistence.off": (
            "Persistence mode is off on {gpus}: turn it on with `sudo nvidia-smi -pm 1` or enable the "
            "nvidia-persistenced service."
        ),
        "verify.persistence.skip": "Persistence mode does not apply (Windows or virtual GPU).",
        "verify.ecc.pass": "ECC is on for every GPU.",
        "verify.ecc.fail": "ECC is off on data-centre GPU {gpus}: run `sudo nvidia-smi -e 1` and reboot.",
        "verify.ecc.warn": "ECC is off, or a change waits for a reboot, on {gpus}.",
        "verify.ecc.skip": "These GPUs do not support ECC.",
        "verify.ecc.plan_off": "The plan switches ECC off (host tuning): TUNE-ECC judges the mode against it.",
        "verify.power.pass": "Power limits are at or above the default.",
        "verify.power.fail": "Power limit lowered: {which}. Restore it with `sudo nvidia-smi -pl {watts}`.",
        "verify.power.skip": "nvidia-smi reports no power limit.",
        "verify.retired.pass": "No retired or remapped memory pending.",
        "verify.retired.pending": (
            "{gpus} has memory retirement/row remapping pending: reset the GPU or reboot to apply it; if it keeps "
            "happening, return the GPU."
        ),
        "verify.retired.failure": "Row remapping failed on {gpus}: the memory is damaged; return the GPU.",
        "verify.retired.some": "{gpus} already has retired memory pages: on a new card, ask the vendor about it.",
        "verify.retired.skip": "nvidia-smi reports no memory retirement data.",
        "verify.ecc_errors.pass": "No uncorrectable ECC errors recorded.",
        "verify.ecc_errors.warn": (
            "Uncorrectable ECC errors recorded: {which}. On a new card, ask the vendor about them."
        ),
        "verify.ecc_errors.skip": "nvidia-smi reports no ECC error counts.",
        "verify.mig.supported": "Every GPU supports MIG.",
        "verify.mig.unsupported": "The plan needs MIG but {gpus} does not support it.",
        "verify.mig.enabled": (
            "MIG is enabled on {gpus}: whole-GPU jobs cannot use them; if not wanted, turn it off with `sudo "
            "nvidia-smi -i {first} -mig 0`."
        ),
        "verify.mig.off": "MIG is off.",
        "verify.mig.skip": "These GPUs do not support MIG.",
        "verify.nvlink.pass": "Every GPU pair is linked by NVLink ({kind}).",
        "verify.nvlink.fail": (
            "The plan needs NVLink but these GPU pairs only talk over PCIe: {pairs}. Check the NVLink bridges, or the "
            "HGX baseboard and Fabric Manager."
        ),
        "verify.nvlink.pcie": "GPUs talk over PCIe (the plan does not need NVLink).",
        "verify.nvlink.skip": "No topology, or only one GPU.",
        "verify.cpu_model.pass": "The CPU is the planned model.",
        "verify.cpu_model.fail": "The CPU is not the planned {part}.",
        "verify.cpu_model.inventory": "CPU model recorded (no plan to compare with).",
        "verify.cpu_model.unknown": "The CPU model could not be read.",
        "verify.cpu_cores.pass": "At least the planned CPU cores.",
        "verify.cpu_cores.fail": (
            "Only {have} physical cores where {want} were planned: check the CPU count and model, and cores disabled "
            "in the BIOS."
        ),
        "verify.cpu_cores.inventory": "CPU cores recorded (no plan to compare with).",
        "verify.cpu_cores.unknown": "The CPU core count could not be read.",
        "verify.ram.pass": (
            "Memory as planned (MemTotal is a little below the installed size: firmware and kernel reserve some)."
        ),
        "verify.ram.fail": (
            "The system sees {have} GiB where {want} GiB was planned: at least one {module} GiB module is missing or "
            "not detected."
        ),
        "verify.ram.inventory": "Memory size recorded (no plan to compare with).",
        "verify.nvme.inventory": "NVMe drives found: {n} (no plan to compare with).",
        "verify.ram.unknown": "The memory size could not be read.",
        "verify.nvme.pass": plural("{n} NVMe drive found.", "{n} NVMe drives found.", "n"),
        "verify.nvme.fail": "Only {n} of the {want} planned NVMe drives were found.",
        "verify.nvme.none": "No NVMe drive was found.",
        "verify.net.pass": "Each of the {n} planned network ports has its own link up at the planned speed.",
        "verify.net.fail": (
            "{short} of the {want} planned ports have no link up at the planned speed (down or slower: {down}): check "
            "cables, transceivers and switch ports."
        ),
        "verify.net.inventory": "Network link speeds recorded (no plan to compare with).",
        "verify.net.unknown": (
            "The network ports could not be read (/sys/class/net, /sys/class/infiniband and ibstat gave nothing)."
        ),
        "verify.os.pass": "The operating system is as planned.",
        "verify.os.fail": "The operating system is not the planned {part}.",
        "verify.os.inventory": "Operating system recorded (no plan to compare with).",
        "verify.os.unknown": "/etc/os-release could not be read.",
        "verify.driver_min.pass": "The driver meets CUDA {cuda}'s minimum.",
        "verify.driver_min.fail": "The driver is older than the {need} that CUDA {cuda} needs: upgrade it.",
        "verify.driver_min.no_plan": "The plan chooses no CUDA version.",
        "verify.driver_min.unknown": "The driver version could not be read.",
        "verify.driver_branch.pass": "The driver branch is as planned.",
        "verify.driver_branch.warn": "The driver is not from the planned {branch} branch.",
        "verify.cuda.pass": "The driver supports the planned CUDA version.",
        "verify.cuda.fail": "The driver supports only an older CUDA and cannot run CUDA {cuda}: upgrade it.",
        "verify.cuda.unknown": "nvidia-smi reports no CUDA version.",
        "verify.cuda.inventory": "The newest CUDA the driver supports, recorded (no plan to compare with).",
        "verify.toolkit.pass": "CUDA toolkit (nvcc) on the host.",
        "verify.toolkit.other": (
            "nvcc on the host is not the planned CUDA {cuda} (no matter if jobs run in containers with their own "
            "toolkit)."
        ),
        "verify.toolkit.none": "No nvcc on the host (containers bring their own CUDA toolkit; usually not needed).",
        "verify.runtime.pass": "Docker and the NVIDIA Container Toolkit are installed.",
        "verify.runtime.no_toolkit": (
            "Docker is installed but the NVIDIA Container Toolkit is not: containers cannot use the GPUs."
        ),
        "verify.runtime.none": "The plan uses a container image but Docker was not found.",
        "verify.runtime.optional": "No Docker (the plan uses no container).",
        "verify.image.pass": "The planned image is on this machine.",
        "verify.image.missing": "The planned image is not on this machine yet: run `docker pull {ref}`.",
        "verify.image.no_docker": "No Docker, so the image cannot be checked.",
        "verify.framework.pass": "The framework is as planned and can use CUDA.",
        "verify.framework.other": "The host's {name} is not the planned version.",
        "verify.framework.no_cuda": "{name} is installed but cannot use CUDA: check its CUDA build and the driver.",
        "verify.framework.absent": "{name} is not on the host (often only inside the container; not required).",
        "verify.framework.inventory": "Frameworks on the host.",
        "verify.framework.none": "No PyTorch or TensorFlow on the host (not required).",
        "verify.bench.pass": "Benchmark done (matrix multiply and memory bandwidth, against the catalog peak).",
        "verify.bench.fail": "The benchmark failed: {which}.",
        "verify.bench.skip": "Benchmark skipped: {reason}.",
        "verify.bench.no_torch": "no PyTorch with CUDA is available",
        "verify.bench.no_gpu": "nvidia-smi reported no GPU",
        "verify.bench.timeout": "it did not finish within {timeout} s",
        "verify.val.enabled": "Enabled",
        "verify.val.list": "{items}",
        "verify.val.kernel_log_not_collected": "the kernel log was not collected",
        "verify.val.gpus_not_read": "not read: {gpus}",
        "verify.val.not_read": "not read",
        "verify.val.fm_starts": plural("{n} start", "{n} starts", "n"),
        "verify.val.lspci_missing": "lspci is not installed (install pciutils)",
        "verify.val.topo_no_nic": "`nvidia-smi topo -m` lists no NIC",
        "verify.val.mig_on": "Enabled ({n} MIG)",
        "verify.val.gpu_state": "{gpu}: {now}",
        "verify.val.gpu_pending": "{gpu}: {now} → {then}",
        "verify.val.slowdown": "slowdown",
        "verify.val.shutdown": "shutdown",
        "verify.val.temp_over": "{gpu} {t} °C ≥ {kind} {limit} °C",
        "verify.val.tlimit_under": "{gpu} T.Limit {t} °C ≤ slowdown {limit} °C",
        "verify.val.pairs_without_nvlink": "{n} GPU pairs without NVLink",
        "verify.val.min_gbs": "min {gbs} GB/s",
        "verify.val.json_cut": "its JSON does not parse to its end",
        "verify.val.dcgm_no_footer": "no closing border",
        "verify.val.missing": "missing: {names}",
        "verify.val.gpus_seen": "{seen} of the node's {gpus} GPUs",
        "verify.val.pairs_read": "{read} of {pairs} GPU pairs read",
        "verify.val.no_line": "no \"{line}\" line",
        "verify.val.nccl": "peak {peak} GB/s, avg {avg} GB/s",
        "verify.val.nccl_nodes": plural(
            "{n} node: peak {peak} GB/s, avg {avg} GB/s",
            "{n} nodes: peak {peak} GB/s, avg {avg} GB/s",
            "n",
        ),
        "verify.val.burn_peaks": "max {t} °C, peak {w} W total",
        "verify.val.draw": "{draw} W ({gpus} W GPUs measured + {rest} W rest planned)",
        "verify.val.draw_bmc": "{draw}; BMC {bmc} W",
        "verify.val.disabled": "Disabled",
        "verify.val.disabled_on": "Disabled: {gpus}",
        "verify.val.disabled_pending_on": "Disabled/pending: {gpus}",
        "verify.val.default_w": "default {w} W",
        "verify.val.power_capped": "{gpu} {w} W ({default})",
        "verify.val.no": "No",
        "verify.val.remap_failure": "remap failure: {gpus}",
        "verify.val.pending": "pending: {gpus}",
        "verify.val.retired_pages": "retired pages: {gpus}",
        "verify.val.cores_sockets": plural("{cores} core / {#sockets}", "{cores} cores / {#sockets}", "cores"),
        "verify.val.cores_sockets#sockets": plural("{sockets} socket", "{sockets} sockets", "sockets"),
        "verify.val.cores_socket": plural(
            "{cores} core / {sockets} socket",
            "{cores} cores / {sockets} socket",
            "cores",
        ),
        "verify.merge.title": plural("Verification of {n} node", "Verification of {n} nodes", "n"),
        "verify.merge.node_count.pass": "The node count is as planned.",
        "verify.merge.node_count.fail": (
            "Reports from only {n} of the {want} planned nodes: the missing ones did not run the verification or their "
            "reports were not collected."
        ),
        "verify.merge.node_count.more": plural(
            "Reports from {n} node, more than the {want} planned.",
            "Reports from {n} nodes, more than the {want} planned.",
            "n",
        ),
        "verify.merge.node_count.no_plan": plural(
            "{n} node (no plan to compare).",
            "{n} nodes (no plan to compare).",
            "n",
        ),
        "verify.merge.duplicate": "Duplicate host names: {names} (the same node's report merged twice?).",
        "verify.merge.unique": "Every node has its own host name.",
        "verify.merge.nodes.pass": "Every node passes its checks.",
        "verify.merge.nccl.none": (
            "Load runs were made, but no node ran NCCL across the nodes ({nodes} planned): the network between them is "
            "untested. Run verify --load in a Slurm allocation of all nodes, or with --hostfile."
        ),
        "verify.merge.nccl.from": (
            "The network between the nodes, from the cross-node NCCL run on {node} (its LOAD-NCCL-NODES)."
        ),
        "verify.merge.nodes.fail": "These nodes have failed checks: {nodes}.",
        "verify.merge.nodes.error": "These nodes could not be verified: {nodes}.",
        "verify.merge.same.pass": "Every node has the same {what}.",
        "verify.merge.same.unknown": plural(
            "The {what} of {n} node could not be read, so whether every node has the same is unknown.",
            "The {what} of {n} nodes could not be read, so whether every node has the same is unknown.",
            "n",
        ),
        "verify.merge.same.warn": "The nodes differ in {what}: {values}.",
        "verify.merge.plan.pass": "Every node was verified against this plan.",
        "verify.merge.plan.fail": (
            "Some nodes were not verified against this plan, so their checks do not count for it: {detail}"
        ),
        "verify.merge.plan.none": "verified without --plan (inventory only): {nodes}.",
        "verify.merge.plan.other": (
            "verified against another plan (or an earlier version of it): {nodes}. Run verify --plan with this plan "
            "again."
        ),
        "verify.merge.gpu_ids.pass": "No GPU serial number or UUID appears on more than one node.",
        "verify.merge.gpu_ids.fail": (
            "GPU serial numbers or UUIDs found in the reports of more than one node ({n}; one node's report copied "
            "under another name?): {ids}{more}."
        ),
        "verify.merge.what.driver": "driver version",
        "verify.merge.what.gpus": "GPU model and count",
        "verify.merge.read_error": "Cannot read a report: {error}",
    }
)

register(
    {
        "verify.unknown.unread": (
            "Could not be read on {gpus} ({why}): nothing is said about those GPUs; reset or reseat them and run again."
        ),
        "verify.unknown.no_smi": "nvidia-smi gave no report: not checked.",
        "verify.val.not_reported": "not reported",
        "verify.val.none": "none",
        "verify.val.below_slowdown": "below the slowdown threshold",
        "verify.readings.pass": plural(
            "No reading of the {n} GPU shows a fault.",
            "No reading of the {n} GPUs shows a fault.",
            "n",
        ),
        "verify.readings.fail": (
            "{gpus} report faulty readings ({which}): the GPU or its driver is in a fault state; reset it (nvidia-smi "
            "-r) or reboot, and reseat or RMA it if it stays."
        ),
        "verify.pci_count.pass": "The PCI bus shows the same {n} NVIDIA GPUs the driver sees.",
        "verify.pci_count.fail": (
            "The PCI bus has {bus} NVIDIA GPUs but the driver sees {n} (not driven: {lost}): look for Xid 79 / NVRM "
            "errors in dmesg."
        ),
        "verify.pci_count.unknown": "The GPU count could not be checked against the PCI bus: {why}.",
        "verify.mig.pending": (
            "{gpus} have a pending MIG mode change: reset the GPU (nvidia-smi -r) or reboot, then verify again."
        ),
        "verify.vbios.pass": "GPUs of the same model share one VBIOS and board part number.",
        "verify.vbios.warn": (
            "GPUs of the same model differ in VBIOS or board part number ({which}): ask the vendor whether these are "
            "reworked or different-batch cards."
        ),
        "verify.vbios.skip": "nvidia-smi reports no VBIOS version.",
        "verify.ecc_errors.volatile": (
            "Uncorrectable ECC errors since the driver loaded ({which}): a new machine must not show them; reset the "
            "GPU and contact the vendor."
        ),
        "verify.throttle.pass": "No hardware or thermal slowdown is active.",
        "verify.throttle.fail": (
            "A hardware slowdown is active ({which}): check cooling, airflow, power delivery and any BMC power cap."
        ),
        "verify.throttle.warn": "A software thermal slowdown is active ({which}): check cooling.",
        "verify.throttle.skip": "nvidia-smi reports no clock event reasons.",
        "verify.temp.pass": plural(
            "All {n} GPU read are below their own slowdown temperature.",
            "All {n} GPUs read are below their own slowdown temperature.",
            "n",
        ),
        "verify.temp.fail": "GPU temperature at the slowdown/shutdown threshold ({which}): check cooling and airflow.",
        "verify.temp.skip": "nvidia-smi reports no temperature thresholds.",
        "verify.pcie_errors.pass": "No PCIe AER errors or replays on the GPUs\" links since boot.",
        "verify.pcie_errors.fail": (
            "Fatal/non-fatal PCIe AER errors on GPU links ({which}): reseat the GPU or riser and check the slot."
        ),
        "verify.pcie_errors.warn": (
            "Correctable PCIe errors or replays on GPU links ({which}): recheck under load; reseat if they keep "
            "growing."
        ),
        "verify.pcie_errors.skip": "No PCIe AER or replay counters were readable.",
        "verify.xid.pass": "No Xid events in the kernel log.",
        "verify.xid.fail": "The kernel log has {n} Xid events that point at the hardware or its setup ({which}).",
        "verify.xid.warn": "The kernel log has {n} Xid events usually caused by an application ({which}).",
        "verify.xid.unknown": (
            "The kernel log could not be read ({why}): run as root, or add the user to the systemd-journal/adm group."
        ),
        "verify.xid.action.application": "check the application",
        "verify.xid.action.reset": "reset the GPU or reboot; RMA if it repeats",
        "verify.xid.action.reseat": "check and reseat the GPU/cables and power; RMA if it repeats",
        "verify.xid.action.rma": "contact the vendor for an RMA",
        "verify.xid.action.driver": "check the driver installation",
        "verify.xid.action.fabric": "check Fabric Manager",
        "verify.xid.action.investigate": "look it up in NVIDIA's Xid catalogue",
        "verify.fabric.pass": "The NVSwitch fabric is up on every GPU.",
        "verify.fabric.fail": (
            "The NVSwitch fabric is not up ({which}; nvidia-fabricmanager: {service}): start nvidia-fabricmanager "
            "(same version as the driver); without it CUDA cannot run on these GPUs."
        ),
        "verify.fabric.service": (
            "The nvidia-fabricmanager service is {service}: an HGX/NVSwitch system needs it running."
        ),
        "verify.fabric.active": "The nvidia-fabricmanager service is running.",
        "verify.fabric.unknown": (
            "The Fabric Manager state could not be determined (nvidia-smi reports no fabric state; systemctl: "
            "{service})."
        ),
        "verify.fabric.skip": "Not applicable: no NVSwitch fabric.",
        "verify.fabric.log_errors": plural(
            "Fabric Manager logged {n} error since it last started ({path}): “{first}”. On a new machine that is"
            " an NVSwitch or NVLink fault: read the log, reset the GPUs and NVSwitches (or reboot), and have the"
            " vendor check the baseboard if it returns.",
            "Fabric Manager logged {n} errors since it last started ({path}), the latest: “{first}”. On a new"
            " machine that is an NVSwitch or NVLink fault: read the log, reset the GPUs and NVSwitches (or"
            " reboot), and have the vendor check the baseboard if the errors return.",
            "n",
        ),
        "verify.fabric.log_fatal": plural(
            "Fabric Manager logged {n} NVSwitch fatal error ({path}): “{first}”. The fabric needs the GPUs and"
            " NVSwitches reset; contact the vendor if it repeats (RMA).",
            "Fabric Manager logged {n} NVSwitch fatal errors ({path}), the latest: “{first}”. The fabric needs"
            " the GPUs and NVSwitches reset; contact the vendor if it repeats (RMA).",
            "n",
        ),
        "verify.fabric.log_errors_restarted": plural(
            "Fabric Manager logged {n} error in this boot and then restarted ({path}): “{first}”. The run since is"
            " clean, but the fault happened on this machine: read the log, reset the GPUs and NVSwitches (or"
            " reboot), and have the vendor check the baseboard if it returns.",
            "Fabric Manager logged {n} errors in this boot and then restarted ({path}), the latest: “{first}”. The"
            " run since is clean, but the fault happened on this machine: read the log, reset the GPUs and"
            " NVSwitches (or reboot), and have the vendor check the baseboard if the errors return.",
            "n",
        ),
        "verify.fabric.log_restarts": plural(
            "Fabric Manager started {starts} time in this boot ({path}), and its runs of earlier boots logged"
            " {earlier} errors: find out what they were (`journalctl -u nvidia-fabricmanager`) and watch whether"
            " they return.",
            "Fabric Manager started {starts} times in this boot ({path}), and its runs of earlier boots logged"
            " {earlier} errors: find out why it restarted (`journalctl -u nvidia-fabricmanager`) and watch"
            " whether errors return.",
            "starts",
        ),
        "verify.fabric.log_unknown": (
            "Fabric Manager's log could not be read ({why}), so its errors and restarts on this NVSwitch system"
            " are not known: run as root, or set LOG_FILE_NAME in fabricmanager.cfg to a file that can be read."
        ),
        "verify.nvlink.unknown": "The plan needs NVLink but the GPU topology could not be read ({why}).",
        "verify.nvme.unknown": "The disk list could not be read (lsblk did not run or failed).",
        "verify.nic_ports.no_plan": "Network ports recorded (no NIC in the plan to compare with).",
        "verify.nic_ports.unknown": "The network ports could not be read.",
        "verify.nic_ports.pass": "{n} network ports found, as many as planned or more.",
        "verify.nic_ports.fail": (
            "Only {n} network ports found, {want} planned: a NIC is missing, not seated, or its driver is not loaded."
        ),
        "verify.smi.hint.inforom": (
            "The infoROM of {bus} is corrupted: ECC and some counters cannot be trusted; contact the vendor (usually "
            "an RMA)."
        ),
        "verify.smi.hint.lost": (
            "A GPU is lost or needs a reset: reset it (nvidia-smi -r) or reboot; reseat or RMA it if it repeats."
        ),
        "verify.merge.nodes.not_passed": "Nodes that did not pass: {detail}",
        "verify.merge.nodes.failed_list": "failed: {nodes}.",
        "verify.merge.nodes.error_list": "could not be verified: {nodes}.",
        "verify.merge.nodes.unknown_list": "unknown: {nodes}.",
        "verify.step.load": "Load run",
        "verify.load.not_run": "{tool} gave no result: {why}.",
        "verify.load.no_expected": (
            "{tool} ran, but the catalog has no expected value (with a source) for {part}: not judged."
        ),
        "verify.load.dcgm.pass": "All {n} DCGM diagnostic tests passed.",
        "verify.load.dcgm.fail": (
            "DCGM diagnostics failed ({which}): follow DCGM's advice (often Fabric Manager not running or a GPU "
            "needing a reset)."
        ),
        "verify.load.nvbandwidth.pass": "Every GPU pair reaches the expected bandwidth.",
        "verify.load.nvbandwidth.fail": (
            "The slowest GPU pair reaches {have} GB/s, at least {want} GB/s expected: check NVLink/NVSwitch and Fabric "
            "Manager."
        ),
        "verify.load.nccl.pass": "NCCL all-reduce bus bandwidth reaches the published figure.",
        "verify.load.nccl.low": (
            "NCCL all-reduce peak bus bandwidth is {pct}% of the published {want} GB/s: check NVLink, the NCCL version "
            "and the topology."
        ),
        "verify.load.nccl.fail": "The NCCL all-reduce test failed: {why}.",
        "verify.load.burn.pass": plural(
            "{n} GPU burned together for {seconds} s with correct results.",
            "{n} GPUs burned together for {seconds} s with correct results.",
            "n",
        ),
        "verify.load.burn.fail": (
            "{gpus} computed wrong results under load: the GPU is faulty; contact the vendor for an RMA."
        ),
        "verify.load.throttle.pass": "No hardware slowdown during the burn ({n} samples).",
        "verify.load.throttle.fail": (
            "{gpus} slowed down in hardware during the burn: check cooling, airflow, power delivery and any BMC power "
            "cap."
        ),
        "verify.load.throttle.warn": "{gpus} hit a software thermal slowdown during the burn: check cooling.",
        "verify.merge.what.vbios": "VBIOS and board part numbers",
        "verify.load.power.pass": (
            "The draw measured under the burn, {draw} W (GPUs measured + the plan's rest of the system), fits the "
            "{capacity} W usable without the {redundant} redundant PSUs, with the policy's headroom."
        ),
        "verify.load.power.headroom": (
            "The draw under the burn, {draw} W, fits the usable {capacity} W but with less than the policy's {pct}% "
            "headroom."
        ),
        "verify.load.power.fail": (
            "The draw under the burn, {draw} W, exceeds the {capacity} W usable without the redundant PSUs: redundancy "
            "does not hold at full load; larger or more PSUs, or a GPU power limit, are needed."
        ),
        "verify.load.power.unknown": "The PSU headroom cannot be judged: no power figure for {parts} in the plan.",
        "verify.load.nccl_nodes.pass": (
            "NCCL all_reduce across {n} nodes reaches the bus bandwidth the planned NICs should carry."
        ),
        "verify.load.nccl_nodes.low": (
            "NCCL all-reduce across nodes peaks at {pct}% of the {want} GB/s the planned NICs should carry: check the "
            "NIC link rates, GPUDirect RDMA, GPU-NIC topology and the switch configuration."
        ),
        "verify.load.nccl_nodes.no_expected": (
            "NCCL ran across nodes, but no planned NIC has a per-port expected bandwidth (with a source) in the "
            "catalog: not judged."
        ),
        "verify.load.nccl_nodes.partial": plural(
            "The cross-node NCCL run covered {n} node of {want}: the network to the others is untested.",
            "The cross-node NCCL run covered {n} nodes of {want}: the network to the others is untested.",
            "n",
        ),
        "verify.load.nccl_nodes.not_here": plural(
            (
                "The plan has {nodes} node: the cross-node NCCL run happens on the first node of a Slurm allocation "
                "(or with --hostfile), not on this one."
            ),
            (
                "The plan has {nodes} nodes: the cross-node NCCL run happens on the first node of a Slurm allocation "
                "(or with --hostfile), not on this one."
            ),
            "nodes",
        ),
        "verify.load.power.bmc_over": (
            "The BMC read {bmc} W under the burn, above the {capacity} W usable without the redundant PSUs; the GPUs "
            "measured plus the plan's rest of the system come to {draw} W, within it. The BMC reads the PSUs' input, "
            "above their output by the conversion losses: ask the vendor whether redundancy holds at full load."
        ),
        "verify.load.psu.pass": (
            "During the burn the BMC saw {n} power supplies present, none failed, without input or with redundancy "
            "lost ({samples} readings)."
        ),
        "verify.load.psu.fail": (
            "The BMC reported a power-supply fault during the burn ({which}): replace or reseat that PSU and check its "
            "input cord, then run the load again."
        ),
        "verify.load.psu.missing": (
            "The BMC sees {n} power supplies present, the plan has {want}: a PSU is missing or unseated."
        ),
        "verify.load.power.no_plan": "GPU power under the burn recorded (no PSU in the plan to compare with).",
        "verify.affinity.pass": (
            "Each of the {n} GPUs reaches a NIC through its own PCIe switch (PIX/PXB): GPUDirect RDMA does not cross "
            "the CPU."
        ),
        "verify.affinity.warn": (
            "These GPUs reach their nearest NIC only through the CPU ({which}): with a NIC per GPU planned, check "
            "which slots the NICs sit in."
        ),
        "verify.affinity.unknown": "A NIC port per GPU is planned but the GPU-NIC topology could not be read ({why}).",
        "verify.affinity.inventory": (
            "Each GPU's nearest-NIC path recorded (fewer NIC ports than GPUs planned: not judged)."
        ),
        "verify.affinity.skip": "No NIC in the topology.",
        "verify.nic_fw.pass": "Network adapters of one type run one firmware version.",
        "verify.nic_fw.warn": (
            "Network adapters of one type run different firmware ({which}): bring them to one version (mlxfwmanager)."
        ),
        "verify.nic_fw.skip": "No InfiniBand/RoCE adapter firmware version was readable.",
        "verify.nvlink_links.pass": "Every NVLink link of the {n} GPUs is up, with the same count and speed on each.",
        "verify.nvlink_links.fail": (
            "NVLink links are inactive ({which}): check the baseboard and NVSwitches, Fabric Manager, reset the GPU; "
            "RMA if it stays."
        ),
        "verify.nvlink_links.odd": "Some GPUs have fewer or slower NVLink links than the others ({which}).",
        "verify.nvlink_links.unknown": "The NVLink link state could not be read ({why}).",
        "verify.nvlink_links.partial": (
            "`nvidia-smi nvlink -s` listed {read} of the {n} GPUs: the links of {gpus} were not read, so they are not"
            " known to be up. Rerun it and check those GPUs."
        ),
        "verify.nvlink_links.none": "nvidia-smi lists no NVLink links.",
        "verify.nvlink_links.skip": "NVLink link state not read (fewer than two GPUs).",
        "verify.nvlink_errors.pass": (
            "None of the {n} NVLink links of {gpus} GPUs has more Replay, Recovery or CRC errors than the policy "
            "allows."
        ),
        "verify.nvlink_errors.fail": (
            "NVLink error counters are over the policy's limits ({which}): the links retransmit, retrain or corrupt "
            "data; check the baseboard and NVSwitch seating, RMA if they keep growing after a reset."
        ),
        "verify.nvlink_errors.unknown": "The NVLink error counters could not be read ({why}).",
        "verify.nvlink_errors.partial": (
            "`nvidia-smi nvlink -e` listed {read} of the {n} GPUs: the error counters of {gpus} were not read, so"
            " their links are not known to be clean. Rerun it and check those GPUs."
        ),
        "verify.nvlink_errors.none": "nvidia-smi lists no NVLink error counters (no NVLink links).",
        "verify.nvlink_errors.skip": "NVLink error counters not read (fewer than two GPUs).",
        "verify.smi.missing_loaded": (
            "nvidia-smi was not found ({where}), but the NVIDIA kernel module is loaded ({module}): the driver is"
            " installed without its utilities or they are not on PATH. Reinstall the driver's utilities (nvidia-"
            "utils) or pass --nvidia-smi PATH."
        ),
        "verify.smi.missing_dcgm": (
            "nvidia-smi was not found ({where}) although NVIDIA's DCGM is installed ({tools}): the driver's "
            "utilities are missing or not on PATH, which does not mean no driver. Reinstall the driver's "
            "utilities (nvidia-utils) or pass --nvidia-smi PATH."
        ),
        "verify.val.lspci_short": "lspci lists {bus} NVIDIA GPUs while the driver sees {n}: the listing is incomplete",
        "verify.fabric.service_failed": (
            "The nvidia-fabricmanager service has failed (systemd), although the {n} GPUs still report their "
            "fabric as Completed: nothing now handles NVSwitch errors or GPU resets. Read `journalctl -u nvidia-"
            "fabricmanager`, fix the cause and restart it."
        ),
        "verify.fabric.service_down": (
            "The {n} GPUs report their fabric as Completed, but the nvidia-fabricmanager service is {service}: an"
            " NVSwitch system needs it running."
        ),
        "verify.nic_ports.reader": (
            "{n} network ports were read, fewer than planned, because a reader failed ({reader}): no card is said"
            " to be missing; fix or rerun the reader."
        ),
        "verify.net.reader": "The link speeds could not all be read because a reader failed ({reader}).",
        "verify.load.hung": (
            "{tool} did not finish within its {seconds} s limit and was stopped: a GPU, the driver or the fabric "
            "may be hung (look for Xid errors in the kernel log)."
        ),
        "verify.load.died": (
            "{tool} did not end cleanly ({how}): \"{line}\". A load tool that stops early or reports an error "
            "through its exit status fails the run; its output is in the JSON report."
        ),
        "verify.load.empty": "{tool} printed no result (\"{line}\"): not judged.",
        "verify.load.incomplete": (
            "{tool}'s output ended before it was complete ({what}): not every pair of the node's GPUs was "
            "measured, so it is not judged. Run it again and keep its whole output."
        ),
        "verify.load.dcgm.incomplete": (
            "dcgmi diag's output ended before its result table did ({what}): the level-{level} tests it did not "
            "print may have failed, so it is not judged. Run it again and keep its whole output."
        ),
        "verify.load.nccl.incomplete": (
            "{tool}'s output ended before its own summary (\"# Out of bounds values\", \"# Avg bus bandwidth\") "
            "appeared, after {n} message sizes (peak {peak} GB/s so far): not judged. Run it again and keep its "
            "whole output."
        ),
        "verify.load.corrupt": (
            "{tool} read back wrong data (\"{line}\"): memory or interconnect corruption. Reset the GPUs and run "
            "again; contact the vendor for an RMA if it repeats."
        ),
        "verify.load.nccl.below_floor": (
            "NCCL all-reduce peak bus bandwidth is {have} GB/s, {pct}% of the published {want} GB/s and below the"
            " policy's {floor}% floor: check NVLink, NVSwitch and Fabric Manager, the NCCL version and the "
            "topology."
        ),
        "verify.load.nccl_nodes.below_floor": (
            "NCCL all-reduce across nodes peaks at {have} GB/s, {pct}% of the {want} GB/s the planned NICs should"
            " carry and below the policy's {floor}% floor: check the NIC link rates, GPUDirect RDMA, GPU-NIC "
            "topology and the switch configuration."
        ),
        "verify.load.burn.died": (
            "The burn workers of {gpus} died (\"{line}\"): a GPU that cannot sustain the burn fails acceptance. "
            "Look for Xid errors in the kernel log, reset the GPU and run again."
        ),
        "verify.load.after.not_read": (
            "The health counters were not read again after the load: faults the load provoked are not seen."
        ),
        "verify.load.after.fail": (
            "After the load the GPUs show faults they did not have before it ({which}): the load provoked them; "
            "reset, run again and contact the vendor for an RMA if they repeat."
        ),
        "verify.load.after.warn": (
            "After the load there are new events usually caused by an application or harmless on their own "
            "({which})."
        ),
        "verify.load.after.unread": (
            "Not everything could be read again after the load ({what}): faults the load provoked there are not "
            "seen."
        ),
        "verify.load.after.pass": (
            "Read again after the load: no new Xid, ECC, retired-page, AER or NVLink errors and every GPU still "
            "there."
        ),
        "verify.load.p2p.no_peer": (
            "These GPU pairs cannot reach each other directly ({pairs}): with NVLink planned every pair should; "
            "check the NVLink/NVSwitch baseboard and Fabric Manager."
        ),
        "verify.load.p2p.pass": (
            "p2pBandwidthLatencyTest ended cleanly over {n} GPU pairs; the slowest P2P pair reached {gbs} GB/s "
            "(recorded, no expected figure)."
        ),
        "verify.xid.nvrm": (
            "The kernel log has {n} driver events that point at the hardware, some without an Xid number "
            "({which})."
        ),
        "verify.load.dcgm.warn": (
            "DCGM diagnostics warned ({which}): read DCGM's advice for these tests before accepting the node."
        ),
    }
)
