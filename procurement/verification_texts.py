"""Chinese and English text of the verification checks, faults, progress steps and tables."""

from __future__ import annotations

from procurement.messages import register

register(
    {
        "verify.status.pass": {"zh": "通过", "en": "PASS"},
        "verify.status.fail": {"zh": "失败", "en": "FAIL"},
        "verify.status.warn": {"zh": "警告", "en": "WARN"},
        "verify.status.skip": {"zh": "跳过", "en": "SKIP"},
        "verify.status.unknown": {"zh": "未知", "en": "UNKNOWN"},
        "verify.col.check": {"zh": "检查项", "en": "Check"},
        "verify.col.status": {"zh": "结果", "en": "Status"},
        "verify.col.expected": {"zh": "期望", "en": "Expected"},
        "verify.col.actual": {"zh": "实际", "en": "Actual"},
        "verify.col.gpu": {"zh": "GPU", "en": "GPU"},
        "verify.col.name": {"zh": "型号", "en": "Name"},
        "verify.col.memory": {"zh": "显存", "en": "Memory"},
        "verify.col.pcie": {"zh": "PCIe 当前/最大", "en": "PCIe now/max"},
        "verify.col.power": {"zh": "功耗上限", "en": "Power limit"},
        "verify.col.persist": {"zh": "常驻", "en": "Persist"},
        "verify.col.ecc": {"zh": "ECC", "en": "ECC"},
        "verify.col.temp": {"zh": "温度", "en": "Temp"},
        "verify.col.mig": {"zh": "MIG", "en": "MIG"},
        "verify.col.catalog": {"zh": "目录型号", "en": "Catalog part"},
        "verify.col.node": {"zh": "节点", "en": "Node"},
        "verify.col.gpus": {"zh": "GPU", "en": "GPUs"},
        "verify.col.driver": {"zh": "驱动", "en": "Driver"},
        "verify.col.cuda": {"zh": "CUDA", "en": "CUDA"},
        "verify.col.result": {"zh": "结论", "en": "Result"},
        "verify.col.counts": {"zh": "通过/失败/警告/未知/跳过", "en": "pass/fail/warn/unknown/skip"},
        "verify.header.host": {
            "zh": "主机 {hostname}：{os}，内核 {kernel}；CPU {cpu}（{sockets} 路，{cores} 核）；内存 "
            "{memory} GiB",
            "en": "Host {hostname}: {os}, kernel {kernel}; CPU {cpu} ({sockets} sockets, {cores} cores); "
            "memory {memory} GiB",
        },
        "verify.header.driver": {
            "zh": "驱动 {driver}，CUDA {cuda}，{n} 块 GPU",
            "en": "Driver {driver}, CUDA {cuda}, {n} GPU(s)",
        },
        "verify.summary": {
            "zh": "结果：{passed} 通过，{failed} 失败，{warned} 警告，{unknown} 未知，{skipped} 跳过",
            "en": "Result: {passed} passed, {failed} failed, {warned} warnings, {unknown} unknown, {skipped} skipped",
        },
        "verify.error": {"zh": "无法验证：{error}", "en": "Nothing could be verified: {error}"},
        "verify.written": {"zh": "报告已写入 {path}", "en": "Report written to {path}"},
        "verify.no_plan": {
            "zh": "未指定计划：仅输出清单与健康检查。",
            "en": "No plan given: inventory and health checks only.",
        },
        "verify.plan_error": {"zh": "无法读取计划：{error}", "en": "Cannot read the plan: {error}"},
        "verify.write_error": {
            "zh": "无法写入报告 {path}：{error}",
            "en": "Cannot write the report {path}: {error}",
        },
        "verify.step.smi": {"zh": "读取 nvidia-smi", "en": "Reading nvidia-smi"},
        "verify.step.topo": {"zh": "读取 GPU 拓扑", "en": "Reading the GPU topology"},
        "verify.step.host": {
            "zh": "检查 CPU、内存、磁盘与网络",
            "en": "Checking CPU, memory, disks and network",
        },
        "verify.step.software": {
            "zh": "检查 CUDA、容器与框架",
            "en": "Checking CUDA, containers and frameworks",
        },
        "verify.step.bench": {"zh": "运行性能测试", "en": "Running the benchmark"},
        "verify.step.checks": {"zh": "与计划对比", "en": "Comparing with the plan"},
        "verify.step.done": {"zh": "完成", "en": "Done"},
        "verify.cancelled": {"zh": "验证已取消", "en": "Verification cancelled"},
        "verify.smi.pass": {
            "zh": "nvidia-smi 正常返回：驱动 {driver}，{n} 块 GPU。",
            "en": "nvidia-smi answered: driver {driver}, {n} GPU(s).",
        },
        "verify.smi.missing": {
            "zh": "找不到 nvidia-smi（{where}）：NVIDIA 驱动未安装。请安装与计划一致的驱动后重试。",
            "en": "nvidia-smi was not found ({where}): the NVIDIA driver is not installed. Install the "
            "planned driver and run again.",
        },
        "verify.smi.not_run": {
            "zh": "无法运行 nvidia-smi：{detail}",
            "en": "nvidia-smi could not be started: {detail}",
        },
        "verify.smi.exit": {
            "zh": "nvidia-smi 以代码 {code} 退出：“{text}”。{hint}",
            "en": 'nvidia-smi exited with code {code}: "{text}". {hint}',
        },
        "verify.smi.partial": {
            "zh": "nvidia-smi 报告了错误：“{text}”。{hint}",
            "en": 'nvidia-smi reported an error: "{text}". {hint}',
        },
        "verify.smi.timeout": {
            "zh": "nvidia-smi 在 {timeout} 秒内没有响应，已被终止；GPU 或驱动可能挂起（查看 `dmesg` 中的 "
            "Xid 错误）。",
            "en": "nvidia-smi did not answer within {timeout} s and was stopped; a GPU or the driver may be "
            "hung (look for Xid errors in `dmesg`).",
        },
        "verify.smi.garbage": {
            "zh": "nvidia-smi 的输出不是可用的 XML 报告：{reason}。",
            "en": "nvidia-smi printed something that is not a usable XML report: {reason}.",
        },
        "verify.smi.cancelled": {
            "zh": "已取消，nvidia-smi 被终止。",
            "en": "Cancelled; nvidia-smi was stopped.",
        },
        "verify.smi.hint.no_driver": {
            "zh": "驱动内核模块未加载（内核升级后未重建，或安全启动阻止了模块）：检查 `lsmod | grep nvidia` "
            "与 `dmesg`。",
            "en": "The driver's kernel module is not loaded (not rebuilt after a kernel update, or blocked "
            "by Secure Boot): check `lsmod | grep nvidia` and `dmesg`.",
        },
        "verify.smi.hint.no_devices": {
            "zh": "驱动没有看到任何 GPU：检查 GPU 是否插好并接好供电（`lspci | grep -i nvidia`），以及容器或"
            " Slurm 作业是否分配了 GPU。",
            "en": "The driver sees no GPU: check that the GPUs are seated and powered (`lspci | grep -i "
            "nvidia`) and that the container or Slurm job was given GPUs.",
        },
        "verify.smi.hint.mismatch": {
            "zh": "已加载的内核模块与用户态库版本不一致（升级驱动后未重启）：请重启主机。",
            "en": "The loaded kernel module and the user-space library differ (driver updated without a "
            "reboot): reboot the host.",
        },
        "verify.smi.hint.device": {
            "zh": "有 GPU 初始化失败（掉卡或需要复位）：查看 `dmesg` 中的 Xid 错误，重新插拔或更换该 GPU（"
            "{bus}）。",
            "en": "A GPU failed to initialise (fell off the bus or needs a reset): look for Xid errors in "
            "`dmesg`, reseat or replace that GPU ({bus}).",
        },
        "verify.smi.hint.other": {
            "zh": "请查看 `dmesg` 与驱动安装日志。",
            "en": "Look at `dmesg` and the driver installation log.",
        },
        "verify.gpu_visible.pass": {
            "zh": "nvidia-smi 报告了全部 {n} 块 GPU。",
            "en": "nvidia-smi reports all {n} GPU(s).",
        },
        "verify.gpu_visible.fail": {
            "zh": "驱动识别到 {attached} 块 GPU，但只报告了 {n} 块：有 GPU 掉卡或无法访问。",
            "en": "The driver counts {attached} GPUs attached but reports only {n}: a GPU fell off the bus "
            "or cannot be reached.",
        },
        "verify.gpu_model.pass": {
            "zh": "全部 GPU 与计划型号 {part} 一致。",
            "en": "Every GPU is the planned {part}.",
        },
        "verify.gpu_model.fail": {
            "zh": "{gpus} 不是计划的 {part}。",
            "en": "{gpus} is not the planned {part}.",
        },
        "verify.gpu_model.none": {"zh": "没有找到 GPU。", "en": "No GPU was found."},
        "verify.gpu_model.no_names": {
            "zh": "目录中 {part} 没有 nvidia-smi 名称，无法自动比对，请人工核对型号。",
            "en": "The catalog has no nvidia-smi names for {part}; compare the model by eye.",
        },
        "verify.gpu_model.unknown": {
            "zh": "{gpus} 的型号不在目录中。",
            "en": "{gpus}: the model is not in the catalog.",
        },
        "verify.gpu_model.mixed": {
            "zh": "本机混装了不同型号的 GPU。",
            "en": "This machine mixes GPU models.",
        },
        "verify.gpu_model.inventory": {"zh": "GPU 型号清单。", "en": "GPU inventory."},
        "verify.gpu_count.pass": {"zh": "GPU 数量 {n} 与计划一致。", "en": "{n} GPU(s), as planned."},
        "verify.gpu_count.duplicate_uuid": {
            "zh": "报告列出 {n} 块 GPU，但其中只有 {distinct} 块互不相同：UUID {uuids} "
                  "出现了不止一次（报告被编辑或重复）。",
            "en": "The report lists {n} GPUs but only {distinct} are distinct: UUID {uuids} appears more than once "
            "(an edited or replayed report).",
        },
        "verify.gpu_count.fewer": {
            "zh": "只找到 {n} 块 GPU，计划为 {want} 块：检查是否漏装、掉卡或被 cgroup/Slurm 隐藏。",
            "en": "Only {n} of the {want} planned GPUs were found: check for a missing card, one that fell "
            "off the bus, or GPUs hidden by cgroups/Slurm.",
        },
        "verify.gpu_count.more": {
            "zh": "找到 {n} 块 GPU，多于计划的 {want} 块。",
            "en": "{n} GPUs found, more than the {want} planned.",
        },
        "verify.gpu_count.no_plan": {
            "zh": "找到 {n} 块 GPU（无计划可比）。",
            "en": "{n} GPU(s) found (no plan to compare).",
        },
        "verify.gpu_memory.pass": {
            "zh": "已读取的 {n} 块 GPU 显存都不少于型号标称值。",
            "en": "All {n} GPU(s) read have their rated memory.",
        },
        "verify.gpu_memory.fail": {
            "zh": "{gpus} 的显存少于型号标称值：可能交付了小显存版本。",
            "en": "{gpus} has less memory than the model's rating: a smaller-memory variant may have been "
            "delivered.",
        },
        "verify.gpu_memory.skip": {
            "zh": "目录中没有该型号的显存容量，无法比较。",
            "en": "No catalog memory size to compare with.",
        },
        "verify.pcie.skip": {
            "zh": "nvidia-smi 未报告 PCIe 链路（虚拟 GPU 或不支持）。",
            "en": "nvidia-smi reports no PCIe link (virtual GPU or not supported).",
        },
        "verify.pcie_width.pass": {
            "zh": "{n} 块 GPU 均以最大链路宽度运行。",
            "en": "All {n} GPU(s) run at their full link width.",
        },
        "verify.pcie_width.fail": {
            "zh": "链路宽度不足：{which}。检查插槽、转接卡（riser）和 BIOS 的通道拆分设置；若测量时 GPU 空闲"
            "，空闲时链路降速是正常的节能行为；请在负载下复查：运行训练或压力任务时执行 `nvidia-smi -q -d "
            "PCIE` 或 `nvidia-smi dmon -s t` 观察当前链路。",
            "en": "Link narrower than it should be: {which}. Check the slot, the riser and the BIOS lane "
            "bifurcation; if the GPU was idle when measured, an idle link slows down to save power, which "
            "is normal; recheck under load: while a job runs, watch the current link with `nvidia-smi -q -d "
            "PCIE` or `nvidia-smi dmon -s t`.",
        },
        "verify.pcie_gen.pass": {
            "zh": "{n} 块 GPU 均以最高 PCIe 代数运行。",
            "en": "All {n} GPU(s) run at their top PCIe generation.",
        },
        "verify.pcie_gen.idle": {
            "zh": "当前链路低于最大值：{which}。空闲时链路降速是正常的节能行为；请在负载下复查：运行训练或压"
            "力任务时执行 `nvidia-smi -q -d PCIE` 或 `nvidia-smi dmon -s t` 观察当前链路。负载下仍偏低则检查"
            "插槽与 BIOS 设置。",
            "en": "Current link below its maximum: {which}. An idle link slows down to save power, which is "
            "normal; recheck under load: while a job runs, watch the current link with `nvidia-smi -q -d "
            "PCIE` or `nvidia-smi dmon -s t`. If it stays low under load, check the slot and BIOS settings.",
        },
        "verify.pcie_gen.fail": {
            "zh": "链路最高代数低于 GPU 支持的代数：{which}。插槽、转接卡或 BIOS 限制了速度。",
            "en": "The link cannot reach the GPU's PCIe generation: {which}. The slot, riser or BIOS limits "
            "it.",
        },
        "verify.persistence.pass": {
            "zh": "所有 GPU 已开启常驻模式。",
            "en": "Persistence mode is on for every GPU.",
        },
        "verify.persistence.off": {
            "zh": "{gpus} 未开启常驻模式：用 `sudo nvidia-smi -pm 1` 或启用 nvidia-persistenced 服务开启。",
            "en": "Persistence mode is off on {gpus}: turn it on with `sudo nvidia-smi -pm 1` or enable the "
            "nvidia-persistenced service.",
        },
        "verify.persistence.skip": {
            "zh": "常驻模式不适用（Windows 或虚拟 GPU）。",
            "en": "Persistence mode does not apply (Windows or virtual GPU).",
        },
        "verify.ecc.pass": {"zh": "所有 GPU 已开启 ECC。", "en": "ECC is on for every GPU."},
        "verify.ecc.fail": {
            "zh": "数据中心 GPU {gpus} 未开启 ECC：执行 `sudo nvidia-smi -e 1` 后重启。",
            "en": "ECC is off on data-centre GPU {gpus}: run `sudo nvidia-smi -e 1` and reboot.",
        },
        "verify.ecc.warn": {
            "zh": "{gpus} 的 ECC 未开启或待重启生效。",
            "en": "ECC is off, or a change waits for a reboot, on {gpus}.",
        },
        "verify.ecc.skip": {"zh": "这些 GPU 不支持 ECC。", "en": "These GPUs do not support ECC."},
        "verify.power.pass": {
            "zh": "功耗上限不低于默认值。",
            "en": "Power limits are at or above the default.",
        },
        "verify.power.fail": {
            "zh": "功耗上限被调低：{which}。用 `sudo nvidia-smi -pl {watts}` 恢复默认值。",
            "en": "Power limit lowered: {which}. Restore it with `sudo nvidia-smi -pl {watts}`.",
        },
        "verify.power.skip": {
            "zh": "nvidia-smi 未报告功耗上限。",
            "en": "nvidia-smi reports no power limit.",
        },
        "verify.retired.pass": {
            "zh": "没有待处理的显存页退役或行重映射。",
            "en": "No retired or remapped memory pending.",
        },
        "verify.retired.pending": {
            "zh": "{gpus} 有待处理的显存页退役/行重映射：复位 GPU 或重启以生效；反复出现请返修。",
            "en": "{gpus} has memory retirement/row remapping pending: reset the GPU or reboot to apply it; "
            "if it keeps happening, return the GPU.",
        },
        "verify.retired.failure": {
            "zh": "{gpus} 行重映射失败：显存已损坏，请返修。",
            "en": "Row remapping failed on {gpus}: the memory is damaged; return the GPU.",
        },
        "verify.retired.some": {
            "zh": "{gpus} 已有退役的显存页：新卡上出现需向供应商确认。",
            "en": "{gpus} already has retired memory pages: on a new card, ask the vendor about it.",
        },
        "verify.retired.skip": {
            "zh": "nvidia-smi 未报告显存退役信息。",
            "en": "nvidia-smi reports no memory retirement data.",
        },
        "verify.ecc_errors.pass": {
            "zh": "没有不可纠正的 ECC 错误记录。",
            "en": "No uncorrectable ECC errors recorded.",
        },
        "verify.ecc_errors.warn": {
            "zh": "记录到不可纠正的 ECC 错误：{which}。新卡上出现需向供应商确认。",
            "en": "Uncorrectable ECC errors recorded: {which}. On a new card, ask the vendor about them.",
        },
        "verify.ecc_errors.skip": {
            "zh": "nvidia-smi 未报告 ECC 错误计数。",
            "en": "nvidia-smi reports no ECC error counts.",
        },
        "verify.mig.supported": {"zh": "所有 GPU 支持 MIG。", "en": "Every GPU supports MIG."},
        "verify.mig.unsupported": {
            "zh": "计划需要 MIG，但 {gpus} 不支持。",
            "en": "The plan needs MIG but {gpus} does not support it.",
        },
        "verify.mig.enabled": {
            "zh": "{gpus} 已启用 MIG：整卡任务无法使用这些 GPU；如不需要，用 `sudo nvidia-smi -i {first} "
            "-mig 0` 关闭。",
            "en": "MIG is enabled on {gpus}: whole-GPU jobs cannot use them; if not wanted, turn it off "
            "with `sudo nvidia-smi -i {first} -mig 0`.",
        },
        "verify.mig.off": {"zh": "MIG 未启用。", "en": "MIG is off."},
        "verify.mig.skip": {"zh": "这些 GPU 不支持 MIG。", "en": "These GPUs do not support MIG."},
        "verify.nvlink.pass": {
            "zh": "所有 GPU 之间都通过 NVLink（{kind}）互联。",
            "en": "Every GPU pair is linked by NVLink ({kind}).",
        },
        "verify.nvlink.fail": {
            "zh": "计划需要 NVLink，但这些 GPU 之间只有 PCIe：{pairs}。检查 NVLink 桥或 HGX 基板与 Fabric "
            "Manager。",
            "en": "The plan needs NVLink but these GPU pairs only talk over PCIe: {pairs}. Check the NVLink "
            "bridges, or the HGX baseboard and Fabric Manager.",
        },
        "verify.nvlink.pcie": {
            "zh": "GPU 之间经 PCIe 通信（计划未要求 NVLink）。",
            "en": "GPUs talk over PCIe (the plan does not need NVLink).",
        },
        "verify.nvlink.skip": {"zh": "没有拓扑信息或只有一块 GPU。", "en": "No topology, or only one GPU."},
        "verify.cpu_model.pass": {"zh": "CPU 型号与计划一致。", "en": "The CPU is the planned model."},
        "verify.cpu_model.fail": {
            "zh": "CPU 不是计划的 {part}。",
            "en": "The CPU is not the planned {part}.",
        },
        "verify.cpu_model.inventory": {
            "zh": "已记录 CPU 型号（无计划，未比较）。",
            "en": "CPU model recorded (no plan to compare with).",
        },
        "verify.cpu_model.unknown": {"zh": "无法读取 CPU 型号。", "en": "The CPU model could not be read."},
        "verify.cpu_cores.pass": {"zh": "CPU 核数不少于计划。", "en": "At least the planned CPU cores."},
        "verify.cpu_cores.fail": {
            "zh": "只有 {have} 个物理核，计划为 {want} 个：检查 CPU 数量、型号或 BIOS 中被禁用的核。",
            "en": "Only {have} physical cores where {want} were planned: check the CPU count and model, and "
            "cores disabled in the BIOS.",
        },
        "verify.cpu_cores.inventory": {
            "zh": "已记录 CPU 核数（无计划，未比较）。",
            "en": "CPU cores recorded (no plan to compare with).",
        },
        "verify.cpu_cores.unknown": {
            "zh": "无法读取 CPU 核数。",
            "en": "The CPU core count could not be read.",
        },
        "verify.ram.pass": {
            "zh": "内存容量符合计划（MemTotal 会因固件与内核保留而略低于安装容量）。",
            "en": "Memory as planned (MemTotal is a little below the installed size: firmware and kernel "
            "reserve some).",
        },
        "verify.ram.fail": {
            "zh": "系统只识别到 {have} GiB，计划为 {want} GiB：至少少了一条 {module} GiB 内存，检查是否漏装"
            "或未识别。",
            "en": "The system sees {have} GiB where {want} GiB was planned: at least one {module} GiB "
            "module is missing or not detected.",
        },
        "verify.ram.inventory": {
            "zh": "已记录内存容量（无计划，未比较）。",
            "en": "Memory size recorded (no plan to compare with).",
        },
        "verify.nvme.inventory": {
            "zh": "找到 {n} 块 NVMe 盘（无计划，未比较）。",
            "en": "NVMe drives found: {n} (no plan to compare with).",
        },
        "verify.ram.unknown": {"zh": "无法读取内存容量。", "en": "The memory size could not be read."},
        "verify.nvme.pass": {"zh": "找到 {n} 块 NVMe 盘。", "en": "{n} NVMe drive(s) found."},
        "verify.nvme.fail": {
            "zh": "只找到 {n} 块 NVMe 盘，计划为 {want} 块。",
            "en": "Only {n} of the {want} planned NVMe drives were found.",
        },
        "verify.nvme.none": {"zh": "没有找到 NVMe 盘。", "en": "No NVMe drive was found."},
        "verify.net.pass": {
            "zh": "计划的 {n} 个网络端口各有一条链路达到计划速率。",
            "en": "Each of the {n} planned network port(s) has its own link up at the planned speed.",
        },
        "verify.net.fail": {
            "zh": "计划 {want} 个端口中有 {short} 个没有达到计划速率的链路（未连接或较慢：{down}）：检查线缆、光模块与"
            "交换机端口。",
            "en": "{short} of the {want} planned port(s) have no link up at the planned speed (down or slower: "
            "{down}): check cables, transceivers and switch ports.",
        },
        "verify.net.inventory": {
            "zh": "已记录网络链路速率（无计划，未比较）。",
            "en": "Network link speeds recorded (no plan to compare with).",
        },
        "verify.net.unknown": {
            "zh": "无法读取网络端口（/sys/class/net、/sys/class/infiniband 与 ibstat 均无结果）。",
            "en": "The network ports could not be read (/sys/class/net, /sys/class/infiniband and ibstat gave "
            "nothing).",
        },
        "verify.os.pass": {"zh": "操作系统与计划一致。", "en": "The operating system is as planned."},
        "verify.os.fail": {
            "zh": "操作系统不是计划的 {part}。",
            "en": "The operating system is not the planned {part}.",
        },
        "verify.os.inventory": {
            "zh": "已记录操作系统（无计划，未比较）。",
            "en": "Operating system recorded (no plan to compare with).",
        },
        "verify.os.unknown": {"zh": "无法读取 /etc/os-release。", "en": "/etc/os-release could not be read."},
        "verify.driver_min.pass": {
            "zh": "驱动满足 CUDA {cuda} 的最低要求。",
            "en": "The driver meets CUDA {cuda}'s minimum.",
        },
        "verify.driver_min.fail": {
            "zh": "驱动低于 CUDA {cuda} 要求的 {need}：请升级驱动。",
            "en": "The driver is older than the {need} that CUDA {cuda} needs: upgrade it.",
        },
        "verify.driver_min.no_plan": {
            "zh": "计划未选择 CUDA 版本。",
            "en": "The plan chooses no CUDA version.",
        },
        "verify.driver_min.unknown": {
            "zh": "无法读取驱动版本。",
            "en": "The driver version could not be read.",
        },
        "verify.driver_branch.pass": {"zh": "驱动分支与计划一致。", "en": "The driver branch is as planned."},
        "verify.driver_branch.warn": {
            "zh": "驱动不属于计划的 {branch} 分支。",
            "en": "The driver is not from the planned {branch} branch.",
        },
        "verify.cuda.pass": {
            "zh": "驱动支持计划的 CUDA 版本。",
            "en": "The driver supports the planned CUDA version.",
        },
        "verify.cuda.fail": {
            "zh": "驱动最高只支持更早的 CUDA，无法运行 CUDA {cuda}：请升级驱动。",
            "en": "The driver supports only an older CUDA and cannot run CUDA {cuda}: upgrade it.",
        },
        "verify.cuda.unknown": {
            "zh": "nvidia-smi 未报告 CUDA 版本。",
            "en": "nvidia-smi reports no CUDA version.",
        },
        "verify.cuda.inventory": {
            "zh": "已记录驱动支持的最高 CUDA 版本（无计划，未比较）。",
            "en": "The newest CUDA the driver supports, recorded (no plan to compare with).",
        },
        "verify.toolkit.pass": {
            "zh": "主机上的 CUDA 工具包（nvcc）。",
            "en": "CUDA toolkit (nvcc) on the host.",
        },
        "verify.toolkit.other": {
            "zh": "主机上的 nvcc 不是计划的 CUDA {cuda}（容器内使用自带工具包时无影响）。",
            "en": "nvcc on the host is not the planned CUDA {cuda} (no matter if jobs run in containers "
            "with their own toolkit).",
        },
        "verify.toolkit.none": {
            "zh": "主机上没有 nvcc（容器自带 CUDA 工具包，通常无需安装）。",
            "en": "No nvcc on the host (containers bring their own CUDA toolkit; usually not needed).",
        },
        "verify.runtime.pass": {
            "zh": "Docker 与 NVIDIA Container Toolkit 已安装。",
            "en": "Docker and the NVIDIA Container Toolkit are installed.",
        },
        "verify.runtime.no_toolkit": {
            "zh": "已安装 Docker，但没有 NVIDIA Container Toolkit：容器无法使用 GPU。",
            "en": "Docker is installed but the NVIDIA Container Toolkit is not: containers cannot use the "
            "GPUs.",
        },
        "verify.runtime.none": {
            "zh": "计划使用容器镜像，但没有找到 Docker。",
            "en": "The plan uses a container image but Docker was not found.",
        },
        "verify.runtime.optional": {
            "zh": "未安装 Docker（计划未使用容器）。",
            "en": "No Docker (the plan uses no container).",
        },
        "verify.image.pass": {"zh": "计划的镜像已在本机。", "en": "The planned image is on this machine."},
        "verify.image.missing": {
            "zh": "本机还没有计划的镜像：执行 `docker pull {ref}`。",
            "en": "The planned image is not on this machine yet: run `docker pull {ref}`.",
        },
        "verify.image.no_docker": {
            "zh": "没有 Docker，无法检查镜像。",
            "en": "No Docker, so the image cannot be checked.",
        },
        "verify.framework.pass": {
            "zh": "框架版本与计划一致，且能使用 CUDA。",
            "en": "The framework is as planned and can use CUDA.",
        },
        "verify.framework.other": {
            "zh": "主机上的 {name} 版本不是计划的版本。",
            "en": "The host's {name} is not the planned version.",
        },
        "verify.framework.no_cuda": {
            "zh": "{name} 已安装但无法使用 CUDA：检查其 CUDA 构建与驱动。",
            "en": "{name} is installed but cannot use CUDA: check its CUDA build and the driver.",
        },
        "verify.framework.absent": {
            "zh": "主机上没有 {name}（通常只在容器内安装，不影响验收）。",
            "en": "{name} is not on the host (often only inside the container; not required).",
        },
        "verify.framework.inventory": {"zh": "主机上的框架。", "en": "Frameworks on the host."},
        "verify.framework.none": {
            "zh": "主机上没有 PyTorch 或 TensorFlow（不是必需项）。",
            "en": "No PyTorch or TensorFlow on the host (not required).",
        },
        "verify.bench.pass": {
            "zh": "性能测试完成（矩阵乘与显存带宽，与目录峰值对比）。",
            "en": "Benchmark done (matrix multiply and memory bandwidth, against the catalog peak).",
        },
        "verify.bench.fail": {"zh": "性能测试出错：{which}。", "en": "The benchmark failed: {which}."},
        "verify.bench.skip": {"zh": "跳过性能测试：{reason}。", "en": "Benchmark skipped: {reason}."},
        "verify.bench.no_torch": {
            "zh": "没有可用 CUDA 的 PyTorch",
            "en": "no PyTorch with CUDA is available",
        },
        "verify.bench.no_gpu": {"zh": "nvidia-smi 没有报告 GPU", "en": "nvidia-smi reported no GPU"},
        "verify.bench.timeout": {
            "zh": "超过 {timeout} 秒未完成",
            "en": "it did not finish within {timeout} s",
        },
        "verify.val.enabled": {"zh": "已启用", "en": "Enabled"},
        "verify.val.list": {"zh": "{items}", "en": "{items}"},
        "verify.val.kernel_log_not_collected": {"zh": "未采集内核日志", "en": "the kernel log was not collected"},
        "verify.val.lspci_missing": {
            "zh": "未安装 lspci（请安装 pciutils）",
            "en": "lspci is not installed (install pciutils)",
        },
        "verify.val.topo_no_nic": {"zh": "`nvidia-smi topo -m` 未列出网卡", "en": "`nvidia-smi topo -m` lists no NIC"},
        "verify.val.mig_on": {"zh": "已启用（{n} 个 MIG）", "en": "Enabled ({n} MIG)"},
        "verify.val.gpu_state": {"zh": "{gpu}：{now}", "en": "{gpu}: {now}"},
        "verify.val.gpu_pending": {"zh": "{gpu}：{now} → {then}", "en": "{gpu}: {now} → {then}"},
        "verify.val.slowdown": {"zh": "降频阈值", "en": "slowdown"},
        "verify.val.shutdown": {"zh": "关机阈值", "en": "shutdown"},
        "verify.val.temp_over": {"zh": "{gpu} {t} °C ≥ {kind} {limit} °C", "en": "{gpu} {t} °C ≥ {kind} {limit} °C"},
        "verify.val.tlimit_under": {
            "zh": "{gpu} T.Limit {t} °C ≤ 降频阈值 {limit} °C",
            "en": "{gpu} T.Limit {t} °C ≤ slowdown {limit} °C",
        },
        "verify.val.pairs_without_nvlink": {
            "zh": "{n} 对 GPU 之间没有 NVLink",
            "en": "{n} GPU pairs without NVLink",
        },
        "verify.val.min_gbs": {"zh": "最低 {gbs} GB/s", "en": "min {gbs} GB/s"},
        "verify.val.nccl": {"zh": "峰值 {peak} GB/s，平均 {avg} GB/s", "en": "peak {peak} GB/s, avg {avg} GB/s"},
        "verify.val.nccl_nodes": {
            "zh": "{n} 个节点：峰值 {peak} GB/s，平均 {avg} GB/s",
            "en": "{n} nodes: peak {peak} GB/s, avg {avg} GB/s",
        },
        "verify.val.burn_peaks": {"zh": "最高 {t} °C，总功耗峰值 {w} W", "en": "max {t} °C, peak {w} W total"},
        "verify.val.draw": {
            "zh": "{draw} W（GPU 实测 {gpus} W + 计划其余部件 {rest} W）",
            "en": "{draw} W ({gpus} W GPUs measured + {rest} W rest planned)",
        },
        "verify.val.draw_bmc": {"zh": "{draw}；BMC {bmc} W", "en": "{draw}; BMC {bmc} W"},
        "verify.val.disabled": {"zh": "已禁用", "en": "Disabled"},
        "verify.val.disabled_on": {"zh": "已禁用：{gpus}", "en": "Disabled: {gpus}"},
        "verify.val.disabled_pending_on": {"zh": "已禁用/待重启生效：{gpus}", "en": "Disabled/pending: {gpus}"},
        "verify.val.default_w": {"zh": "默认 {w} W", "en": "default {w} W"},
        "verify.val.power_capped": {"zh": "{gpu} {w} W（{default}）", "en": "{gpu} {w} W ({default})"},
        "verify.val.no": {"zh": "无", "en": "No"},
        "verify.val.remap_failure": {"zh": "重映射失败：{gpus}", "en": "remap failure: {gpus}"},
        "verify.val.pending": {"zh": "待处理：{gpus}", "en": "pending: {gpus}"},
        "verify.val.retired_pages": {"zh": "有退役页：{gpus}", "en": "retired pages: {gpus}"},
        "verify.val.cores_sockets": {"zh": "{cores} 核 / {sockets} 路", "en": "{cores} cores / {sockets} sockets"},
        "verify.val.cores_socket": {"zh": "{cores} 核 / {sockets} 路", "en": "{cores} cores / {sockets} socket"},
        "verify.merge.title": {"zh": "{n} 个节点的验证结果", "en": "Verification of {n} node(s)"},
        "verify.merge.node_count.pass": {"zh": "节点数量与计划一致。", "en": "The node count is as planned."},
        "verify.merge.node_count.fail": {
            "zh": "只收到 {n} 个节点的报告，计划为 {want} 个：缺少的节点没有运行验证或报告未收集。",
            "en": "Reports from only {n} of the {want} planned nodes: the missing ones did not run the "
            "verification or their reports were not collected.",
        },
        "verify.merge.node_count.more": {
            "zh": "收到 {n} 个节点的报告，多于计划的 {want} 个。",
            "en": "Reports from {n} nodes, more than the {want} planned.",
        },
        "verify.merge.node_count.no_plan": {
            "zh": "{n} 个节点（无计划可比）。",
            "en": "{n} node(s) (no plan to compare).",
        },
        "verify.merge.duplicate": {
            "zh": "主机名重复：{names}（同一节点的报告被合并了两次？）。",
            "en": "Duplicate host names: {names} (the same node's report merged twice?).",
        },
        "verify.merge.unique": {"zh": "每个节点的主机名都不同。", "en": "Every node has its own host name."},
        "verify.merge.nodes.pass": {"zh": "所有节点的检查都通过。", "en": "Every node passes its checks."},
        "verify.merge.nccl.none": {
            "zh": "负载测试已运行，但没有节点做过跨节点 NCCL 测试（计划 {nodes} 个节点）：节点之间的网络未经负载验证。"
            "请在包含全部节点的 Slurm 分配中运行 verify --load，或使用 --hostfile。",
            "en": "Load runs were made, but no node ran NCCL across the nodes ({nodes} planned): the network "
            "between them is untested. Run verify --load in a Slurm allocation of all nodes, or with --hostfile.",
        },
        "verify.merge.nccl.from": {
            "zh": "节点间网络的负载结果来自 {node} 上的跨节点 NCCL 测试（见该节点的 LOAD-NCCL-NODES）。",
            "en": "The network between the nodes, from the cross-node NCCL run on {node} (its LOAD-NCCL-NODES).",
        },
        "verify.merge.nodes.fail": {
            "zh": "这些节点有失败项：{nodes}。",
            "en": "These nodes have failed checks: {nodes}.",
        },
        "verify.merge.nodes.error": {
            "zh": "这些节点无法验证：{nodes}。",
            "en": "These nodes could not be verified: {nodes}.",
        },
        "verify.merge.same.pass": {"zh": "所有节点的{what}一致。", "en": "Every node has the same {what}."},
        "verify.merge.same.warn": {
            "zh": "节点之间的{what}不一致：{values}。",
            "en": "The nodes differ in {what}: {values}.",
        },
        "verify.merge.plan.pass": {
            "zh": "每个节点都是按本计划验证的。",
            "en": "Every node was verified against this plan.",
        },
        "verify.merge.plan.fail": {
            "zh": "有节点不是按本计划验证的，其检查结果不能用于本计划的验收：{detail}",
            "en": "Some nodes were not verified against this plan, so their checks do not count for it: "
            "{detail}",
        },
        "verify.merge.plan.none": {
            "zh": "未使用 --plan 验证（仅清点）：{nodes}。",
            "en": "verified without --plan (inventory only): {nodes}.",
        },
        "verify.merge.plan.other": {
            "zh": "按另一份计划（或修改前的计划）验证：{nodes}。请用本计划重新运行 verify --plan。",
            "en": "verified against another plan (or an earlier version of it): {nodes}. Run verify --plan "
            "with this plan again.",
        },
        "verify.merge.gpu_ids.pass": {
            "zh": "各节点的 GPU 序列号/UUID 互不重复。",
            "en": "No GPU serial number or UUID appears on more than one node.",
        },
        "verify.merge.gpu_ids.fail": {
            "zh": "{n} 个 GPU 序列号/UUID 出现在多个节点的报告中（同一节点的报告被改名复制？）：{ids}{more}。",
            "en": "GPU serial numbers or UUIDs found in the reports of more than one node ({n}; one node's "
            "report copied under another name?): {ids}{more}.",
        },
        "verify.merge.what.driver": {"zh": "驱动版本", "en": "driver version"},
        "verify.merge.what.gpus": {"zh": "GPU 型号与数量", "en": "GPU model and count"},
        "verify.merge.read_error": {"zh": "无法读取报告：{error}", "en": "Cannot read a report: {error}"},
    }
)

register(
    {
        "verify.unknown.unread": {
            "zh": "无法读取 {gpus}（{why}）：对这些 GPU 不作结论；复位或重新插拔后再运行。",
            "en": 'Could not be read on {gpus} ({why}): nothing is said about those GPUs; reset or reseat '
            'them and run again.',
        },
        "verify.unknown.no_smi": {
            "zh": "nvidia-smi 没有给出报告：未检查。",
            "en": "nvidia-smi gave no report: not checked.",
        },
        "verify.val.not_reported": {"zh": '未报告', "en": 'not reported'},
        "verify.val.none": {"zh": '无', "en": 'none'},
        "verify.val.below_slowdown": {"zh": '低于降频阈值', "en": 'below the slowdown threshold'},
        "verify.readings.pass": {
            "zh": "全部 {n} 块 GPU 的读数都没有故障标记。",
            "en": "No reading of the {n} GPU(s) shows a fault.",
        },
        "verify.readings.fail": {
            "zh": '{gpus} 的读数报告故障（{which}）：GPU '
            '或其驱动处于故障状态，复位（nvidia-smi -r）或重启，仍出现则重新插拔/返修。',
            "en": '{gpus} report faulty readings ({which}): the GPU or its driver is in a fault state; reset '
            'it (nvidia-smi -r) or reboot, and reseat or RMA it if it stays.',
        },
        "verify.pci_count.pass": {
            "zh": "PCI 总线上的 NVIDIA GPU 数与驱动看到的 {n} 块一致。",
            "en": "The PCI bus shows the same {n} NVIDIA GPU(s) the driver sees.",
        },
        "verify.pci_count.fail": {
            "zh": 'PCI 总线上有 {bus} 块 NVIDIA GPU，驱动只看到 {n} '
            '块（未被驱动：{lost}）：查看 dmesg 中的 Xid 79/NVRM 错误。',
            "en": 'The PCI bus has {bus} NVIDIA GPU(s) but the driver sees {n} (not driven: {lost}): look '
            'for Xid 79 / NVRM errors in dmesg.',
        },
        "verify.pci_count.unknown": {
            "zh": "无法与 PCI 总线核对 GPU 数：{why}。",
            "en": "The GPU count could not be checked against the PCI bus: {why}.",
        },
        "verify.mig.pending": {
            "zh": '{gpus} 有待生效的 MIG 模式更改：复位 GPU（nvidia-smi '
            '-r）或重启后再验证。',
            "en": '{gpus} have a pending MIG mode change: reset the GPU (nvidia-smi -r) or reboot, then '
            'verify again.',
        },
        "verify.vbios.pass": {
            "zh": "同型号 GPU 的 VBIOS 与板卡料号一致。",
            "en": "GPUs of the same model share one VBIOS and board part number.",
        },
        "verify.vbios.warn": {
            "zh": '同型号 GPU 的 VBIOS '
            '或板卡料号不一致（{which}）：向供应商确认是否为返修或不同批次的卡。',
            "en": 'GPUs of the same model differ in VBIOS or board part number ({which}): ask the vendor '
            'whether these are reworked or different-batch cards.',
        },
        "verify.vbios.skip": {"zh": 'nvidia-smi 未报告 VBIOS 版本。', "en": 'nvidia-smi reports no VBIOS version.'},
        "verify.ecc_errors.volatile": {
            "zh": '自驱动加载以来出现不可纠正 ECC 错误（{which}）：新机器不应出现；复位 GPU '
            '并联系供应商。',
            "en": 'Uncorrectable ECC errors since the driver loaded ({which}): a new machine must not show '
            'them; reset the GPU and contact the vendor.',
        },
        "verify.throttle.pass": {"zh": '没有硬件降频或热降频。', "en": 'No hardware or thermal slowdown is active.'},
        "verify.throttle.fail": {
            "zh": "硬件降频正在生效（{which}）：检查散热、风道、电源与 BMC 的功耗封顶。",
            "en": 'A hardware slowdown is active ({which}): check cooling, airflow, power delivery and any '
            'BMC power cap.',
        },
        "verify.throttle.warn": {
            "zh": "软件热降频正在生效（{which}）：检查散热。",
            "en": "A software thermal slowdown is active ({which}): check cooling.",
        },
        "verify.throttle.skip": {
            "zh": "nvidia-smi 未报告降频原因。",
            "en": "nvidia-smi reports no clock event reasons.",
        },
        "verify.temp.pass": {
            "zh": "已读取的 {n} 块 GPU 温度低于其降频阈值。",
            "en": "All {n} GPU(s) read are below their own slowdown temperature.",
        },
        "verify.temp.fail": {
            "zh": "GPU 温度达到降频/关机阈值（{which}）：检查散热与风道。",
            "en": "GPU temperature at the slowdown/shutdown threshold ({which}): check cooling and airflow.",
        },
        "verify.temp.skip": {
            "zh": "nvidia-smi 未报告温度阈值。",
            "en": "nvidia-smi reports no temperature thresholds.",
        },
        "verify.pcie_errors.pass": {
            "zh": "GPU 的 PCIe 链路自启动以来没有 AER 错误或重传。",
            "en": "No PCIe AER errors or replays on the GPUs\" links since boot.",
        },
        "verify.pcie_errors.fail": {
            "zh": 'GPU 的 PCIe 链路有致命/非致命 AER 错误（{which}）：重新插拔 '
            'GPU 或转接卡，检查插槽。',
            "en": 'Fatal/non-fatal PCIe AER errors on GPU links ({which}): reseat the GPU or riser and check '
            'the slot.',
        },
        "verify.pcie_errors.warn": {
            "zh": 'GPU 的 PCIe '
            '链路有可纠正错误或重传（{which}）：负载下复查；持续增长则重新插拔。',
            "en": 'Correctable PCIe errors or replays on GPU links ({which}): recheck under load; reseat if '
            'they keep growing.',
        },
        "verify.pcie_errors.skip": {
            "zh": "未读到 PCIe AER 计数或重传计数。",
            "en": "No PCIe AER or replay counters were readable.",
        },
        "verify.xid.pass": {"zh": '内核日志中没有 Xid 事件。', "en": 'No Xid events in the kernel log.'},
        "verify.xid.fail": {
            "zh": "内核日志中有 {n} 个 Xid 事件指向硬件或其配置（{which}）。",
            "en": "The kernel log has {n} Xid event(s) that point at the hardware or its setup ({which}).",
        },
        "verify.xid.warn": {
            "zh": "内核日志中有 {n} 个通常由应用引起的 Xid 事件（{which}）。",
            "en": "The kernel log has {n} Xid event(s) usually caused by an application ({which}).",
        },
        "verify.xid.unknown": {
            "zh": '无法读取内核日志（{why}）：以 root 运行，或把用户加入 '
            'systemd-journal/adm 组。',
            "en": 'The kernel log could not be read ({why}): run as root, or add the user to the '
            'systemd-journal/adm group.',
        },
        "verify.xid.action.application": {"zh": '检查应用', "en": 'check the application'},
        "verify.xid.action.reset": {
            "zh": "复位 GPU 或重启；重复出现则返修",
            "en": "reset the GPU or reboot; RMA if it repeats",
        },
        "verify.xid.action.reseat": {
            "zh": "检查并重新插拔 GPU/线缆与供电；重复出现则返修",
            "en": "check and reseat the GPU/cables and power; RMA if it repeats",
        },
        "verify.xid.action.rma": {"zh": '联系供应商返修', "en": 'contact the vendor for an RMA'},
        "verify.xid.action.driver": {"zh": '检查驱动安装', "en": 'check the driver installation'},
        "verify.xid.action.fabric": {"zh": '检查 Fabric Manager', "en": 'check Fabric Manager'},
        "verify.xid.action.investigate": {"zh": '查阅 NVIDIA Xid 目录', "en": "look it up in NVIDIA's Xid catalogue"},
        "verify.fabric.pass": {
            "zh": "每块 GPU 的 NVSwitch fabric 已初始化完成。",
            "en": "The NVSwitch fabric is up on every GPU.",
        },
        "verify.fabric.fail": {
            "zh": 'NVSwitch fabric '
            '未就绪（{which}；nvidia-fabricmanager：{service}）：启'
            '动 nvidia-fabricmanager（版本须与驱动一致），否则 CUDA '
            '无法在这些 GPU 上运行。',
            "en": 'The NVSwitch fabric is not up ({which}; nvidia-fabricmanager: {service}): start '
            'nvidia-fabricmanager (same version as the driver); without it CUDA cannot run on these '
            'GPUs.',
        },
        "verify.fabric.service": {
            "zh": 'nvidia-fabricmanager 服务为 '
            '{service}：HGX/NVSwitch 系统需要它运行。',
            "en": "The nvidia-fabricmanager service is {service}: an HGX/NVSwitch system needs it running.",
        },
        "verify.fabric.active": {
            "zh": "nvidia-fabricmanager 服务正在运行。",
            "en": "The nvidia-fabricmanager service is running.",
        },
        "verify.fabric.unknown": {
            "zh": '无法确定 Fabric Manager 状态（nvidia-smi 未报告 '
            'fabric，systemctl：{service}）。',
            "en": 'The Fabric Manager state could not be determined (nvidia-smi reports no fabric state; '
            'systemctl: {service}).',
        },
        "verify.fabric.skip": {"zh": '不适用：没有 NVSwitch fabric。', "en": 'Not applicable: no NVSwitch fabric.'},
        "verify.nvlink.unknown": {
            "zh": "计划需要 NVLink，但无法读取 GPU 拓扑（{why}）。",
            "en": "The plan needs NVLink but the GPU topology could not be read ({why}).",
        },
        "verify.nvme.unknown": {
            "zh": "无法读取磁盘列表（lsblk 未运行或失败）。",
            "en": "The disk list could not be read (lsblk did not run or failed).",
        },
        "verify.nic_ports.no_plan": {
            "zh": "已记录网络端口（计划中没有网卡，未比较）。",
            "en": "Network ports recorded (no NIC in the plan to compare with).",
        },
        "verify.nic_ports.unknown": {"zh": '无法读取网络端口。', "en": 'The network ports could not be read.'},
        "verify.nic_ports.pass": {
            "zh": "找到 {n} 个网络端口，不少于计划。",
            "en": "{n} network port(s) found, as many as planned or more.",
        },
        "verify.nic_ports.fail": {
            "zh": "只找到 {n} 个网络端口，计划 {want} 个：网卡缺失、未插好或驱动未加载。",
            "en": 'Only {n} network port(s) found, {want} planned: a NIC is missing, not seated, or its '
            'driver is not loaded.',
        },
        "verify.smi.hint.inforom": {
            "zh": '{bus} 的 infoROM 已损坏：ECC '
            '与部分计数不可信；请联系供应商（通常需返修）。',
            "en": 'The infoROM of {bus} is corrupted: ECC and some counters cannot be trusted; contact the '
            'vendor (usually an RMA).',
        },
        "verify.smi.hint.lost": {
            "zh": 'GPU 丢失或需要复位：复位（nvidia-smi '
            '-r）或重启；重复出现则重新插拔/返修。',
            "en": 'A GPU is lost or needs a reset: reset it (nvidia-smi -r) or reboot; reseat or RMA it if '
            'it repeats.',
        },
        "verify.merge.nodes.not_passed": {
            "zh": "以下节点未通过：{detail}",
            "en": "Nodes that did not pass: {detail}",
        },
        "verify.merge.nodes.failed_list": {"zh": "失败：{nodes}。", "en": "failed: {nodes}."},
        "verify.merge.nodes.error_list": {"zh": "无法验证：{nodes}。", "en": "could not be verified: {nodes}."},
        "verify.merge.nodes.unknown_list": {"zh": "结果未知：{nodes}。", "en": "unknown: {nodes}."},
        "verify.step.load": {"zh": "负载测试", "en": "Load run"},
        "verify.load.not_run": {
            "zh": "{tool} 未能给出结果：{why}。",
            "en": "{tool} gave no result: {why}.",
        },
        "verify.load.no_expected": {
            "zh": "{tool} 已运行，但目录中没有 {part} 的期望值（及其来源），无法判定。",
            "en": "{tool} ran, but the catalog has no expected value (with a source) for {part}: not judged.",
        },
        "verify.load.dcgm.pass": {"zh": "DCGM 诊断的 {n} 项全部通过。", "en": "All {n} DCGM diagnostic tests passed."},
        "verify.load.dcgm.fail": {
            "zh": "DCGM 诊断未通过（{which}）：按 DCGM 的提示处理（常见：Fabric Manager 未运行、GPU 需复位）。",
            "en": "DCGM diagnostics failed ({which}): follow DCGM's advice (often Fabric Manager not running or a "
            "GPU needing a reset).",
        },
        "verify.load.nvbandwidth.pass": {
            "zh": "每对 GPU 之间的带宽都达到期望值。",
            "en": "Every GPU pair reaches the expected bandwidth.",
        },
        "verify.load.nvbandwidth.fail": {
            "zh": "最慢的 GPU 对只有 {have} GB/s，期望至少 {want} GB/s：检查 NVLink/NVSwitch 与 Fabric Manager。",
            "en": "The slowest GPU pair reaches {have} GB/s, at least {want} GB/s expected: check NVLink/NVSwitch "
            "and Fabric Manager.",
        },
        "verify.load.nccl.pass": {
            "zh": "NCCL all-reduce 总线带宽达到已发表的数值。",
            "en": "NCCL all-reduce bus bandwidth reaches the published figure.",
        },
        "verify.load.nccl.low": {
            "zh": "NCCL all-reduce 峰值总线带宽为已发表数值 {want} GB/s 的 {pct}%：检查 NVLink、NCCL 版本与拓扑。",
            "en": "NCCL all-reduce peak bus bandwidth is {pct}% of the published {want} GB/s: check NVLink, the "
            "NCCL version and the topology.",
        },
        "verify.load.nccl.fail": {
            "zh": "NCCL all-reduce 测试失败：{why}。",
            "en": "The NCCL all-reduce test failed: {why}.",
        },
        "verify.load.burn.pass": {
            "zh": "{n} 块 GPU 同时满载 {seconds} 秒，计算结果全部正确。",
            "en": "{n} GPUs burned together for {seconds} s with correct results.",
        },
        "verify.load.burn.fail": {
            "zh": "满载时 {gpus} 计算结果错误：GPU 有缺陷，联系供应商返修。",
            "en": "{gpus} computed wrong results under load: the GPU is faulty; contact the vendor for an RMA.",
        },
        "verify.load.throttle.pass": {
            "zh": "满载期间没有硬件降频（{n} 个采样）。",
            "en": "No hardware slowdown during the burn ({n} samples).",
        },
        "verify.load.throttle.fail": {
            "zh": "满载期间 {gpus} 出现硬件降频：检查散热、风道、电源与 BMC 功耗封顶。",
            "en": "{gpus} slowed down in hardware during the burn: check cooling, airflow, power delivery and any "
            "BMC power cap.",
        },
        "verify.load.throttle.warn": {
            "zh": "满载期间 {gpus} 出现软件热降频：检查散热。",
            "en": "{gpus} hit a software thermal slowdown during the burn: check cooling.",
        },
        "verify.merge.what.vbios": {"zh": "VBIOS 与板卡料号", "en": "VBIOS and board part numbers"},
        "verify.load.power.pass": {
            "zh": "满载实测功耗 {draw} W（GPU 实测 + 计划的其余部件）在去掉 {redundant} 个冗余电源后的可用容量 "
            "{capacity} W 之内，并留有策略余量。",
            "en": "The draw measured under the burn, {draw} W (GPUs measured + the plan's rest of the system), "
            "fits the "
            "{capacity} W usable without the {redundant} redundant PSU(s), with the policy's headroom.",
        },
        "verify.load.power.headroom": {
            "zh": "满载功耗 {draw} W 在可用容量 {capacity} W 之内，但余量不足策略要求的 {pct}%。",
            "en": "The draw under the burn, {draw} W, fits the usable {capacity} W but with less than the "
            "policy's {pct}% headroom.",
        },
        "verify.load.power.fail": {
            "zh": "满载功耗 {draw} W 超过去掉冗余电源后的可用容量 {capacity} "
            "W：电源冗余在满载时不成立，需更大或更多电源，或限制 GPU 功耗。",
            "en": "The draw under the burn, {draw} W, exceeds the {capacity} W usable without the redundant PSU(s): "
            "redundancy does not hold at full load; larger or more PSUs, or a GPU power limit, are needed.",
        },
        "verify.load.power.unknown": {
            "zh": "无法判断电源余量：计划中这些部件没有功耗数据（{parts}）。",
            "en": "The PSU headroom cannot be judged: no power figure for {parts} in the plan.",
        },
        "verify.load.nccl_nodes.pass": {
            "zh": "跨 {n} 个节点的 NCCL all_reduce 总线带宽达到计划网卡应有的水平。",
            "en": "NCCL all_reduce across {n} nodes reaches the bus bandwidth the planned NICs should carry.",
        },
        "verify.load.nccl_nodes.low": {
            "zh": "跨节点 NCCL all-reduce 峰值总线带宽为计划网卡应有值 {want} GB/s 的 {pct}%：检查网卡链路速率、"
            "GPUDirect RDMA、GPU 与网卡的拓扑及交换机配置。",
            "en": "NCCL all-reduce across nodes peaks at {pct}% of the {want} GB/s the planned NICs should carry: "
            "check the NIC link rates, GPUDirect RDMA, GPU-NIC topology and the switch configuration.",
        },
        "verify.load.nccl_nodes.no_expected": {
            "zh": "跨节点 NCCL 已运行，但计划的网卡在目录中没有每端口期望带宽（及其来源），无法判定。",
            "en": "NCCL ran across nodes, but no planned NIC has a per-port expected bandwidth (with a source) "
            "in the catalog: not judged.",
        },
        "verify.load.nccl_nodes.partial": {
            "zh": "跨节点 NCCL 测试只覆盖了 {n} 个节点（应为 {want} 个）：其余节点之间的网络未测。",
            "en": "The cross-node NCCL run covered {n} node(s) of {want}: the network to the others is untested.",
        },
        "verify.load.nccl_nodes.not_here": {
            "zh": "计划为 {nodes} 个节点：跨节点 NCCL 测试在 Slurm 分配的第一个节点上运行（或使用 --hostfile），"
            "不在本节点。",
            "en": "The plan has {nodes} nodes: the cross-node NCCL run happens on the first node of a Slurm "
            "allocation (or with --hostfile), not on this one.",
        },
        "verify.load.power.bmc_over": {
            "zh": "BMC 在满载时读到 {bmc} W，超过去掉冗余电源后的可用容量 {capacity} W；"
            "按 GPU 实测加计划其余部件估算为 {draw} W，在容量之内。"
            "BMC 读数是电源输入侧功率，比输出高出转换损耗：请向厂商确认满载时冗余是否成立。",
            "en": "The BMC read {bmc} W under the burn, above the {capacity} W usable without the redundant PSU(s); "
            "the GPUs measured plus the plan's rest of the system come to {draw} W, within it. The BMC reads the "
            "PSUs' input, above their output by the conversion losses: ask the vendor whether redundancy holds "
            "at full load.",
        },
        "verify.load.psu.pass": {
            "zh": "满载期间 BMC 报告 {n} 个电源在位，没有故障、断电或冗余丢失（{samples} 次读数）。",
            "en": "During the burn the BMC saw {n} power supplies present, none failed, without input or with "
            "redundancy lost ({samples} readings).",
        },
        "verify.load.psu.fail": {
            "zh": "满载期间 BMC 报告电源故障（{which}）：更换或重新插好该电源并检查输入电源线，之后重跑负载测试。",
            "en": "The BMC reported a power-supply fault during the burn ({which}): replace or reseat that PSU and "
            "check its input cord, then run the load again.",
        },
        "verify.load.psu.missing": {
            "zh": "BMC 只看到 {n} 个电源在位，计划为 {want} 个：电源缺失或未插好。",
            "en": "The BMC sees {n} power supplies present, the plan has {want}: a PSU is missing or unseated.",
        },
        "verify.load.power.no_plan": {
            "zh": "已记录满载 GPU 功耗（计划中没有电源，未比较）。",
            "en": "GPU power under the burn recorded (no PSU in the plan to compare with).",
        },
        "verify.affinity.pass": {
            "zh": "{n} 块 GPU 各自经同一 PCIe 交换芯片到达网卡（PIX/PXB），GPUDirect RDMA 不经过 CPU。",
            "en": "Each of the {n} GPUs reaches a NIC through its own PCIe switch (PIX/PXB): GPUDirect RDMA "
            "does not cross the CPU.",
        },
        "verify.affinity.warn": {
            "zh": "这些 GPU 与最近的网卡之间要经过 CPU（{which}）：按每 GPU 一块网卡规划时，检查网卡插槽位置。",
            "en": "These GPUs reach their nearest NIC only through the CPU ({which}): with a NIC per GPU "
            "planned, check which slots the NICs sit in.",
        },
        "verify.affinity.unknown": {
            "zh": "计划每块 GPU 配一个网卡端口，但无法读取 GPU 与网卡的拓扑（{why}）。",
            "en": "A NIC port per GPU is planned but the GPU-NIC topology could not be read ({why}).",
        },
        "verify.affinity.inventory": {
            "zh": "已记录每块 GPU 最近网卡的连接方式（计划中网卡端口少于 GPU，未判定）。",
            "en": "Each GPU's nearest-NIC path recorded (fewer NIC ports than GPUs planned: not judged).",
        },
        "verify.affinity.skip": {"zh": "拓扑中没有网卡。", "en": "No NIC in the topology."},
        "verify.nic_fw.pass": {
            "zh": "同型号网卡的固件版本一致。",
            "en": "Network adapters of one type run one firmware version.",
        },
        "verify.nic_fw.warn": {
            "zh": "同型号网卡的固件版本不一致（{which}）：升级到同一版本（mlxfwmanager）。",
            "en": "Network adapters of one type run different firmware ({which}): bring them to one "
            "version (mlxfwmanager).",
        },
        "verify.nic_fw.skip": {
            "zh": "没有读到 InfiniBand/RoCE 网卡固件版本。",
            "en": "No InfiniBand/RoCE adapter firmware version was readable.",
        },
        "verify.nvlink_links.pass": {
            "zh": "{n} 块 GPU 的 NVLink 链路全部处于活动状态，数量与速率一致。",
            "en": "Every NVLink link of the {n} GPUs is up, with the same count and speed on each.",
        },
        "verify.nvlink_links.fail": {
            "zh": "NVLink 链路未激活（{which}）：检查 GPU 基板与 NVSwitch、Fabric Manager，"
            "必要时复位 GPU；仍如此则返修。",
            "en": "NVLink links are inactive ({which}): check the baseboard and NVSwitches, Fabric Manager, "
            "reset the GPU; RMA if it stays.",
        },
        "verify.nvlink_links.odd": {
            "zh": "部分 GPU 的 NVLink 链路数量或速率与其他 GPU 不同（{which}）。",
            "en": "Some GPUs have fewer or slower NVLink links than the others ({which}).",
        },
        "verify.nvlink_links.unknown": {
            "zh": "无法读取 NVLink 链路状态（{why}）。",
            "en": "The NVLink link state could not be read ({why}).",
        },
        "verify.nvlink_links.none": {
            "zh": "nvidia-smi 没有列出 NVLink 链路。",
            "en": "nvidia-smi lists no NVLink links.",
        },
        "verify.nvlink_links.skip": {
            "zh": "未读取 NVLink 链路状态（少于两块 GPU）。",
            "en": "NVLink link state not read (fewer than two GPUs).",
        },
        "verify.nvlink_errors.pass": {
            "zh": "{gpus} 块 GPU 的 {n} 条 NVLink 链路没有超出策略上限的重传（Replay）、恢复（Recovery）或 CRC 错误。",
            "en": "None of the {n} NVLink links of {gpus} GPUs has more Replay, Recovery or CRC errors than the "
            "policy allows.",
        },
        "verify.nvlink_errors.fail": {
            "zh": "NVLink 链路错误计数超出策略上限（{which}）：链路在重传、重训练或数据校验出错，"
            "检查 GPU 基板与 NVSwitch 的连接，复位后仍增长则返修。",
            "en": "NVLink error counters are over the policy's limits ({which}): the links retransmit, retrain "
            "or corrupt data; check the baseboard and NVSwitch seating, RMA if they keep growing after a reset.",
        },
        "verify.nvlink_errors.unknown": {
            "zh": "无法读取 NVLink 错误计数（{why}）。",
            "en": "The NVLink error counters could not be read ({why}).",
        },
        "verify.nvlink_errors.none": {
            "zh": "nvidia-smi 没有列出 NVLink 错误计数（没有 NVLink 链路）。",
            "en": "nvidia-smi lists no NVLink error counters (no NVLink links).",
        },
        "verify.nvlink_errors.skip": {
            "zh": "未读取 NVLink 错误计数（少于两块 GPU）。",
            "en": "NVLink error counters not read (fewer than two GPUs).",
        },
    }
)
