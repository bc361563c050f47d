<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>ChecklistPage</name>
        <message>
            <source>Checklist</source>
            <translation>检查清单</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>项目</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Reason and numbers</source>
            <translation>依据与数值</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>已确认</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>备注</translation>
        </message>
        <message>
            <source>Confir&amp;m item…</source>
            <translation>人工确认(&amp;M)…</translation>
        </message>
        <message>
            <source>An item the app cannot decide (unknown): confirm it yourself, with your name and a note; it shows as confirmed by you, never as an automatic pass</source>
            <translation>应用无法判定的检查项（未知）：由您本人确认，需填写姓名和备注；显示为由您人工确认，绝不显示为自动通过</translation>
        </message>
        <message>
            <source>Remove confirmation</source>
            <translation>取消人工确认</translation>
        </message>
        <message>
            <source>Allowed &amp;signers file…</source>
            <translation>允许签署人文件(&amp;S)…</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>清除</translation>
        </message>
        <message>
            <source>Export checklist…</source>
            <translation>导出检查清单…</translation>
        </message>
        <message>
            <source>Print…</source>
            <translation>打印…</translation>
        </message>
        <message>
            <source>Paper size</source>
            <translation>纸张大小</translation>
        </message>
        <message>
            <source>The checklist could not be built: %1</source>
            <translation>无法生成检查清单：%1</translation>
        </message>
        <message>
            <source>Tick when you have checked this yourself</source>
            <translation>亲自核实后打勾</translation>
        </message>
        <message>
            <source>Double-click to write a note</source>
            <translation>双击填写备注</translation>
        </message>
        <message>
            <source>Confirmed by a person (the app could not decide it)</source>
            <translation>已人工确认（应用无法自动判定）</translation>
        </message>
        <message>
            <source>Decided from the plan and the findings</source>
            <translation>由方案与检查结果自动判定</translation>
        </message>
        <message>
            <source>The app cannot decide this: select it and press Confirm item…</source>
            <translation>应用无法判定此项：选中后按“人工确认…”</translation>
        </message>
        <message>
            <source>SSH signatures are checked against: %1</source>
            <translation>SSH 签名依据此文件核验：%1</translation>
        </message>
        <message>
            <source>No allowed-signers file is set: SSH signatures are shown with their key's fingerprint but not checked.</source>
            <translation>未设置允许签署人文件：SSH 签名只显示密钥指纹，不作核验。</translation>
        </message>
        <message>
            <source>Confirm %1</source>
            <translation>人工确认 %1</translation>
        </message>
        <message>
            <source>Remove the confirmation of %1</source>
            <translation>取消 %1 的人工确认</translation>
        </message>
        <message>
            <source>Checklist: %1</source>
            <translation>检查清单：%1</translation>
        </message>
        <message>
            <source>Export checklist</source>
            <translation>导出检查清单</translation>
        </message>
        <message>
            <source>acceptance-sheet</source>
            <translation>验收单</translation>
        </message>
        <message>
            <source>acceptance-%1</source>
            <translation>验收单-%1</translation>
        </message>
        <message>
            <source>Export acceptance sheet</source>
            <translation>导出验收单</translation>
        </message>
        <message>
            <source>No available font has these characters; the printout shows their code points [U+…] instead: %1</source>
            <translation>没有可用字体能显示以下字符，打印件中以代码点 [U+…] 代替：%1</translation>
        </message>
        <message>
            <source>Print preview — checklist</source>
            <translation>打印预览 — 检查清单</translation>
        </message>
        <message>
            <source>Print</source>
            <translation>打印</translation>
        </message>
    </context>
    <context>
        <name>FindingsPanel</name>
        <message>
            <source>Waive…</source>
            <translation>豁免…</translation>
        </message>
        <message>
            <source>Accept the selected warning or error on purpose, with a reason and your name; it stays listed as waived</source>
            <translation>有意接受所选的警告或错误，需填写原因和您的姓名；该项仍会列出并标明已豁免</translation>
        </message>
        <message>
            <source>Remove waiver</source>
            <translation>取消豁免</translation>
        </message>
        <message>
            <source>Waive %1</source>
            <translation>豁免 %1</translation>
        </message>
        <message>
            <source>Remove waiver of %1</source>
            <translation>取消 %1 的豁免</translation>
        </message>
        <message>
            <source>Errors</source>
            <translation>错误</translation>
        </message>
        <message>
            <source>Warnings</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>Hints</source>
            <translation>提示</translation>
        </message>
        <message>
            <source>Requirements</source>
            <translation>需求分析</translation>
        </message>
        <message>
            <source>GPU selection</source>
            <translation>GPU选型</translation>
        </message>
        <message>
            <source>Server configuration</source>
            <translation>服务器配置</translation>
        </message>
        <message>
            <source>Image selection</source>
            <translation>镜像选择</translation>
        </message>
        <message>
            <source>Verification</source>
            <translation>验证测试</translation>
        </message>
        <message>
            <source>Step %1: %2</source>
            <translation>第 %1 步：%2</translation>
        </message>
        <message>
            <source>Still to choose — %1: %2</source>
            <translation>尚需选择 — %1：%2</translation>
        </message>
        <message>
            <source>No problems found so far; the plan is not complete yet.</source>
            <translation>目前未发现问题，但方案尚未完成。</translation>
        </message>
        <message>
            <source>No problems found in this plan.</source>
            <translation>此方案未发现问题。</translation>
        </message>
        <message>
            <source>Errors: %1 · warnings: %2 · hints: %3 — click one to go to its field.</source>
            <translation>错误 %1 · 警告 %2 · 提示 %3 —— 点击一条即可跳转到对应字段。</translation>
        </message>
    </context>
    <context>
        <name>GpuPage</name>
        <message>
            <source>GPU selection</source>
            <translation>GPU选型</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>排名</translation>
        </message>
        <message>
            <source>GPU</source>
            <translation>GPU</translation>
        </message>
        <message>
            <source>FP16/BF16 TFLOPS</source>
            <translation>FP16/BF16 TFLOPS</translation>
        </message>
        <message>
            <source>FP64 TFLOPS</source>
            <translation>FP64 TFLOPS</translation>
        </message>
        <message>
            <source>TDP (W)</source>
            <translation>功耗 TDP (W)</translation>
        </message>
        <message>
            <source>Price (CNY)</source>
            <translation>价格 (元)</translation>
        </message>
        <message>
            <source>Memory
(GiB)</source>
            <translation>显存
(GiB)</translation>
        </message>
        <message>
            <source>FP64
TFLOPS</source>
            <translation>FP64
TFLOPS</translation>
        </message>
        <message>
            <source>TDP
(W)</source>
            <translation>功耗
(W)</translation>
        </message>
        <message>
            <source>Price
(CNY)</source>
            <translation>价格
(元)</translation>
        </message>
        <message>
            <source>Fits
with</source>
            <translation>所需
数量</translation>
        </message>
        <message>
            <source>Step 2 · GPU selection</source>
            <translation>第 2 步 · GPU选型</translation>
        </message>
        <message>
            <source>Your choice</source>
            <translation>当前选择</translation>
        </message>
        <message>
            <source>&amp;GPU model:</source>
            <translation>GPU 型号(&amp;G)：</translation>
        </message>
        <message>
            <source>&amp;Count:</source>
            <translation>数量(&amp;C)：</translation>
        </message>
        <message>
            <source> GPUs</source>
            <translation> 块</translation>
        </message>
        <message>
            <source>&amp;Use the selected GPU</source>
            <translation>使用选中的 GPU(&amp;U)</translation>
        </message>
        <message>
            <source>Compare</source>
            <translation>对比</translation>
        </message>
        <message>
            <source>(none chosen)</source>
            <translation>（未选择）</translation>
        </message>
        <message numerus="yes">
            <source>%n GPU(s)</source>
            <translation>
                <numerusform>%n 块</numerusform>
            </translation>
        </message>
        <message>
            <source>on request</source>
            <translation>询价</translation>
        </message>
        <message>
            <source>FP16
TFLOPS</source>
            <translation>FP16
TFLOPS</translation>
        </message>
        <message>
            <source>CNY per
GiB</source>
            <translation>每 GiB
(元)</translation>
        </message>
        <message>
            <source>CNY per
TFLOPS</source>
            <translation>每 TFLOPS
(元)</translation>
        </message>
        <message>
            <source>Ranked by: holds the memory estimate → known to be within the budget → suits the usage → suits the budget class → most FP16 TFLOPS per 10,000 CNY → fewest GPUs. Click a column to sort by it; unknown values sort last.</source>
            <translation>排序依据：放得下显存估算 → 已知在预算内 → 适合用途 → 符合预算档次 → 每万元 FP16 TFLOPS 最高 → GPU 数量最少。点击列标题可按该列排序；未知值排在最后。</translation>
        </message>
        <message>
            <source>Or double-click a row, or press Enter on it</source>
            <translation>或双击一行，或在该行上按回车</translation>
        </message>
        <message>
            <source>&amp;Priced only</source>
            <translation>仅显示有价格的(&amp;P)</translation>
        </message>
        <message>
            <source>Hide GPUs without a reference price (on request)</source>
            <translation>隐藏没有参考价（需询价）的 GPU</translation>
        </message>
        <message>
            <source>Form fac&amp;tor:</source>
            <translation>外形(&amp;T)：</translation>
        </message>
        <message>
            <source>Within &amp;budget</source>
            <translation>预算内(&amp;B)</translation>
        </message>
        <message>
            <source>S&amp;ort by:</source>
            <translation>排序(&amp;O)：</translation>
        </message>
        <message>
            <source>↑ lowest first, ↓ highest first (or click a column heading); unknown values sort last</source>
            <translation>↑ 从低到高，↓ 从高到低（也可点击列标题）；未知值排在最后</translation>
        </message>
        <message>
            <source>Price ↑</source>
            <translation>价格 ↑</translation>
        </message>
        <message>
            <source>CNY per GiB ↑</source>
            <translation>每 GiB 价格 ↑</translation>
        </message>
        <message>
            <source>CNY per TFLOPS ↑</source>
            <translation>每 TFLOPS 价格 ↑</translation>
        </message>
        <message>
            <source>Memory ↓</source>
            <translation>显存 ↓</translation>
        </message>
        <message>
            <source>FP16 TFLOPS ↓</source>
            <translation>FP16 TFLOPS ↓</translation>
        </message>
        <message>
            <source>TDP ↑</source>
            <translation>功耗 ↑</translation>
        </message>
        <message>
            <source>Ranking</source>
            <translation>排名</translation>
        </message>
        <message>
            <source>Select two or three rows in the Ranking tab (Ctrl+click, or Shift+arrows) to compare them side by side here.</source>
            <translation>在“排名”标签页中选择两到三行（Ctrl+单击，或 Shift+方向键），即可在此并排对比。</translation>
        </message>
        <message>
            <source>Dense FP16/BF16 tensor TFLOPS</source>
            <translation>稠密 FP16/BF16 张量 TFLOPS</translation>
        </message>
        <message>
            <source>Reference price per GiB of GPU memory (CNY, excl. VAT); unpriced GPUs sort last</source>
            <translation>每 GiB 显存的参考价（元，不含税）；无价格的 GPU 排在最后</translation>
        </message>
        <message>
            <source>Reference price per dense FP16 tensor TFLOPS (CNY, excl. VAT); unpriced GPUs sort last</source>
            <translation>每 TFLOPS 稠密 FP16 张量算力的参考价（元，不含税）；无价格的 GPU 排在最后</translation>
        </message>
        <message>
            <source>GPUs of this model the memory estimate needs for the whole plan; per server when the plan has several servers</source>
            <translation>按显存估算，整个方案需要的该型号 GPU 数量；方案有多台服务器时另注每台数量</translation>
        </message>
        <message>
            <source> GPUs per server</source>
            <translation> 块/台</translation>
        </message>
        <message>
            <source>All</source>
            <translation>全部</translation>
        </message>
        <message>
            <source>Only GPUs whose count for this plan is known to cost no more than the budget (GPUs alone, incl. VAT); unpriced GPUs are not known to be within it</source>
            <translation>仅显示本方案所需数量的总价已知不超过预算的 GPU（仅 GPU，含税）；无价格的 GPU 不算在预算内</translation>
        </message>
        <message>
            <source>Set a budget in step 1 to filter by it</source>
            <translation>请先在第 1 步设置预算，才能按预算筛选</translation>
        </message>
        <message>
            <source>%1 of %2 GPUs shown</source>
            <translation>显示 %1 / %2 款 GPU</translation>
        </message>
        <message>
            <source>%1 (%2/server)</source>
            <translation>%1（每台%2）</translation>
        </message>
        <message>
            <source>No GPU chosen yet: pick one in the table or the list.</source>
            <translation>尚未选择 GPU：请在表格或列表中选择。</translation>
        </message>
        <message>
            <source>%1 × %2 = %3 GiB of GPU memory</source>
            <translation>%1 × %2 = %3 GiB 显存</translation>
        </message>
        <message>
            <source>%1 W for the GPUs</source>
            <translation>GPU 功耗 %1 W</translation>
        </message>
        <message>
            <source>%1 CNY (%2)</source>
            <translation>%1 元（%2）</translation>
        </message>
        <message>
            <source>Select a row to see why it ranks where it does.</source>
            <translation>选中一行可查看其排名理由。</translation>
        </message>
        <message>
            <source>Why %1 ranks #%2:</source>
            <translation>%1 排第 %2 的原因：</translation>
        </message>
        <message>
            <source>%1 is not ranked:</source>
            <translation>%1 未参与排名：</translation>
        </message>
        <message>
            <source>Why %1 is at the top (#%2):</source>
            <translation>%1 排第 %2（最前）的原因：</translation>
        </message>
        <message>
            <source>no estimate yet: enter the model size in step 1</source>
            <translation>尚无估算：请在第 1 步输入模型规模</translation>
        </message>
        <message>
            <source>Compare (%1)</source>
            <translation>对比（%1）</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Architecture</source>
            <translation>架构</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>显存</translation>
        </message>
        <message>
            <source>Bandwidth (GB/s)</source>
            <translation>带宽 (GB/s)</translation>
        </message>
        <message>
            <source>FP32 TFLOPS</source>
            <translation>FP32 TFLOPS</translation>
        </message>
        <message>
            <source>Form factor</source>
            <translation>形态</translation>
        </message>
        <message>
            <source>NVLink (GB/s)</source>
            <translation>NVLink (GB/s)</translation>
        </message>
        <message>
            <source>MIG</source>
            <translation>MIG</translation>
        </message>
        <message>
            <source>ECC</source>
            <translation>ECC</translation>
        </message>
        <message>
            <source>CNY per GiB</source>
            <translation>每 GiB 价格（元）</translation>
        </message>
        <message>
            <source>CNY per TFLOPS</source>
            <translation>每 TFLOPS 价格（元）</translation>
        </message>
        <message>
            <source>Choose GPU</source>
            <translation>选择 GPU</translation>
        </message>
    </context>
    <context>
        <name>ImagePage</name>
        <message>
            <source>CUDA ≤ %1</source>
            <translation>CUDA ≤ %1</translation>
        </message>
        <message>
            <source>data centre only</source>
            <translation>仅限数据中心</translation>
        </message>
        <message>
            <source>driver ≥ %1</source>
            <translation>驱动 ≥ %1</translation>
        </message>
        <message>
            <source>compute capability %1-%2</source>
            <translation>计算能力 %1-%2</translation>
        </message>
        <message>
            <source>CUDA %1</source>
            <translation>CUDA %1</translation>
        </message>
        <message>
            <source>Python %1</source>
            <translation>Python %1</translation>
        </message>
        <message>
            <source>%1, unofficial</source>
            <translation>%1（非官方）</translation>
        </message>
        <message>
            <source>Image selection</source>
            <translation>镜像选择</translation>
        </message>
        <message>
            <source>Software stack</source>
            <translation>软件栈</translation>
        </message>
        <message>
            <source>Dockerfile for the chosen image</source>
            <translation>所选镜像的 Dockerfile</translation>
        </message>
        <message>
            <source>Operating system:</source>
            <translation>操作系统：</translation>
        </message>
        <message>
            <source>Driver branch:</source>
            <translation>驱动分支：</translation>
        </message>
        <message>
            <source>CUDA:</source>
            <translation>CUDA：</translation>
        </message>
        <message>
            <source>Framework:</source>
            <translation>框架：</translation>
        </message>
        <message>
            <source>Container image:</source>
            <translation>容器镜像：</translation>
        </message>
        <message>
            <source>Recommended stack for the chosen GPU</source>
            <translation>所选 GPU 的推荐软件栈</translation>
        </message>
        <message>
            <source>&amp;Apply recommendation</source>
            <translation>应用推荐(&amp;A)</translation>
        </message>
        <message>
            <source>Package &amp;mirror:</source>
            <translation>软件包镜像(&amp;M)：</translation>
        </message>
        <message>
            <source>None (official sources)</source>
            <translation>不使用（官方源）</translation>
        </message>
        <message>
            <source>Point apt and pip at a mirror in mainland China, and make the base image's registry a build argument for an internal registry mirror</source>
            <translation>让 apt 和 pip 使用中国大陆的镜像站，并把基础镜像的仓库设为构建参数，以便使用内部镜像仓库</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Save…</source>
            <translation>保存…</translation>
        </message>
        <message>
            <source>Choose a container image to generate its Dockerfile.</source>
            <translation>选择容器镜像后即生成对应的 Dockerfile。</translation>
        </message>
        <message>
            <source>— not chosen —</source>
            <translation>— 未选择 —</translation>
        </message>
        <message>
            <source>%1 (not in the catalog)</source>
            <translation>%1（不在部件目录中）</translation>
        </message>
        <message>
            <source>Choose a GPU in step 2 to get a recommended driver, CUDA and framework for it.</source>
            <translation>在第 2 步选择 GPU 后，这里会推荐适用的驱动、CUDA 和框架。</translation>
        </message>
        <message>
            <source>The plan already uses this stack.</source>
            <translation>方案已采用此软件栈。</translation>
        </message>
        <message>
            <source>Apply the recommended software stack</source>
            <translation>应用推荐的软件栈</translation>
        </message>
        <message>
            <source>Save Dockerfile</source>
            <translation>保存 Dockerfile</translation>
        </message>
        <message>
            <source>Dockerfile (Dockerfile *.dockerfile);;All files (*)</source>
            <translation>Dockerfile (Dockerfile *.dockerfile);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Could not write %1: %2</source>
            <translation>无法写入 %1：%2</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>编辑(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Go to</source>
            <translation>转到(&amp;G)</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>Open &amp;Recent</source>
            <translation>最近打开(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;New blank plan</source>
            <translation>新建空白方案(&amp;N)</translation>
        </message>
        <message>
            <source>New from &amp;example…</source>
            <translation>从示例新建(&amp;E)…</translation>
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation>打开(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>保存(&amp;S)</translation>
        </message>
        <message>
            <source>Save &amp;As…</source>
            <translation>另存为(&amp;A)…</translation>
        </message>
        <message>
            <source>Export &amp;checklist (PDF)…</source>
            <translation>导出检查清单 PDF(&amp;C)…</translation>
        </message>
        <message>
            <source>&amp;Print…</source>
            <translation>打印(&amp;P)…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;Undo</source>
            <translation>撤销(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>重做(&amp;R)</translation>
        </message>
        <message numerus="yes">
            <source>Implausible values in the user catalog (%n); check them: %1</source>
            <translation>
                <numerusform>用户目录中有不合理的数值（%n 个），请检查：%1</numerusform>
            </translation>
        </message>
        <message>
            <source>E&amp;xport quote (PDF)…</source>
            <translation>导出报价单 PDF(&amp;X)…</translation>
        </message>
        <message>
            <source>Export accep&amp;tance sheet (验收单, PDF)…</source>
            <translation>导出验收单 PDF(&amp;T)…</translation>
        </message>
        <message>
            <source>&amp;Clear recent files</source>
            <translation>清除最近文件(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Back</source>
            <translation>上一步(&amp;B)</translation>
        </message>
        <message>
            <source>&amp;Next</source>
            <translation>下一步(&amp;N)</translation>
        </message>
        <message>
            <source>Show &amp;findings</source>
            <translation>显示检查结果(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;About gpu-procure</source>
            <translation>关于 gpu-procure(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;User guide</source>
            <translation>使用指南(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>键盘快捷键(&amp;K)</translation>
        </message>
        <message>
            <source>Catalog and &amp;policy</source>
            <translation>目录与策略(&amp;P)</translation>
        </message>
        <message>
            <source>The catalog's price dates, and every threshold in force with its source</source>
            <translation>目录的价格日期，以及当前生效的每项阈值及其来源</translation>
        </message>
        <message>
            <source>Copy &amp;diagnostics</source>
            <translation>复制诊断信息(&amp;D)</translation>
        </message>
        <message>
            <source>Copy the versions, the platform, the catalog and the last log lines, for a bug report</source>
            <translation>复制版本、平台、目录信息和最近的日志行，用于报告问题</translation>
        </message>
        <message>
            <source>◀ Back</source>
            <translation>◀ 上一步</translation>
        </message>
        <message>
            <source>Next ▶</source>
            <translation>下一步 ▶</translation>
        </message>
        <message>
            <source>Previous step (Alt+Left)</source>
            <translation>上一步（Alt+←）</translation>
        </message>
        <message>
            <source>Next step (Alt+Right)</source>
            <translation>下一步（Alt+→）</translation>
        </message>
        <message>
            <source>Findings</source>
            <translation>检查结果</translation>
        </message>
        <message>
            <source>Loading the parts catalog…</source>
            <translation>正在加载部件目录…</translation>
        </message>
        <message>
            <source>&amp;Undo %1</source>
            <translation>撤销 %1(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Redo %1</source>
            <translation>重做 %1(&amp;R)</translation>
        </message>
        <message>
            <source>About gpu-procure</source>
            <translation>关于 gpu-procure</translation>
        </message>
        <message>
            <source>gpu-procure %1</source>
            <translation>gpu-procure %1</translation>
        </message>
        <message>
            <source>gpu-procure plans, checks, quotes and verifies GPU server purchases in five steps: requirements, GPU selection, server configuration, image selection and verification.</source>
            <translation>gpu-procure 分五步规划、检查、报价并验收 GPU 服务器采购：需求分析、GPU选型、服务器配置、镜像选择和验证测试。</translation>
        </message>
        <message>
            <source>Qt %1, PySide6 %2</source>
            <translation>Qt %1，PySide6 %2</translation>
        </message>
        <message>
            <source>Licence: see the LICENSE file.</source>
            <translation>许可证：见 LICENSE 文件。</translation>
        </message>
        <message>
            <source>Help → Copy diagnostics puts what a bug report needs on the clipboard.</source>
            <translation>“帮助 → 复制诊断信息”会把报告问题所需的信息复制到剪贴板。</translation>
        </message>
        <message>
            <source>Diagnostics copied to the clipboard</source>
            <translation>诊断信息已复制到剪贴板</translation>
        </message>
        <message>
            <source>Not complete: still to choose %1</source>
            <translation>未完成：尚需选择%1</translation>
        </message>
        <message numerus="yes">
            <source>%n finding(s) on this step</source>
            <translation>
                <numerusform>本步骤有 %n 条检查结果</numerusform>
            </translation>
        </message>
        <message>
            <source>No findings on this step</source>
            <translation>本步骤没有问题</translation>
        </message>
        <message numerus="yes">
            <source>%n failed check(s) in the attached verification reports</source>
            <translation>
                <numerusform>已附验证报告中有 %n 项检查未通过</numerusform>
            </translation>
        </message>
        <message>
            <source>Not available yet.</source>
            <translation>暂不可用。</translation>
        </message>
        <message>
            <source>Untitled plan</source>
            <translation>未命名方案</translation>
        </message>
        <message>
            <source>Cannot open the example</source>
            <translation>无法打开示例</translation>
        </message>
        <message>
            <source>Cannot open the plan</source>
            <translation>无法打开方案</translation>
        </message>
        <message>
            <source>Opening %1…</source>
            <translation>正在打开 %1…</translation>
        </message>
        <message>
            <source>Saving %1…</source>
            <translation>正在保存 %1…</translation>
        </message>
        <message>
            <source>Cannot save the plan</source>
            <translation>无法保存方案</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>已保存 %1</translation>
        </message>
        <message>
            <source>Autosave failed: %1</source>
            <translation>自动保存失败：%1</translation>
        </message>
        <message>
            <source>Cannot restore the autosaved copy</source>
            <translation>无法恢复自动保存的副本</translation>
        </message>
        <message>
            <source>Restore autosaved changes</source>
            <translation>恢复自动保存的修改</translation>
        </message>
    </context>
    <context>
        <name>MoneyBox</name>
        <message>
            <source>not set</source>
            <translation>未设置</translation>
        </message>
        <message>
            <source> CNY</source>
            <translation> 元</translation>
        </message>
    </context>
    <context>
        <name>PlanGaps</name>
        <message>
            <source>a model (a preset or its size)</source>
            <translation>模型（预设或参数量）</translation>
        </message>
        <message>
            <source>a GPU model and count</source>
            <translation>GPU 型号和数量</translation>
        </message>
        <message>
            <source>a chassis</source>
            <translation>机箱</translation>
        </message>
        <message>
            <source>a CPU</source>
            <translation>CPU</translation>
        </message>
        <message>
            <source>a power supply</source>
            <translation>电源</translation>
        </message>
        <message>
            <source>an operating system</source>
            <translation>操作系统</translation>
        </message>
        <message>
            <source>a driver branch</source>
            <translation>驱动分支</translation>
        </message>
        <message>
            <source>a CUDA release</source>
            <translation>CUDA 版本</translation>
        </message>
        <message>
            <source>a verification report</source>
            <translation>验证报告</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
    </context>
    <context>
        <name>PriceImportDialog</name>
        <message>
            <source>Import prices — %1</source>
            <translation>导入价格 — %1</translation>
        </message>
        <message>
            <source>%1 line(s) match a part of the plan exactly, %2 likely (check them); %3 extra line(s) match no part and are not applied.</source>
            <translation>%1 行与方案零件完全匹配，%2 行可能匹配（请核对）；%3 行为附加项，不匹配任何零件，不会导入。</translation>
        </message>
        <message>
            <source>Vendor quote</source>
            <translation>供应商报价</translation>
        </message>
        <message>
            <source>Company price list</source>
            <translation>公司价格表</translation>
        </message>
        <message>
            <source>Prices are a:</source>
            <translation>价格类型：</translation>
        </message>
        <message>
            <source>Source (vendor, quote number):</source>
            <translation>来源（供应商、报价单号）：</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>导入</translation>
        </message>
        <message>
            <source>Row</source>
            <translation>行</translation>
        </message>
        <message>
            <source>In the file</source>
            <translation>文件中的内容</translation>
        </message>
        <message>
            <source>Unit price</source>
            <translation>单价</translation>
        </message>
        <message>
            <source>VAT</source>
            <translation>增值税</translation>
        </message>
        <message>
            <source>Part in the plan</source>
            <translation>方案中的零件</translation>
        </message>
        <message>
            <source>Match</source>
            <translation>匹配</translation>
        </message>
        <message>
            <source>Only the first %1 extra lines are listed.</source>
            <translation>仅列出前 %1 个附加项。</translation>
        </message>
        <message>
            <source>Apply prices</source>
            <translation>导入价格</translation>
        </message>
        <message>
            <source>incl.</source>
            <translation>含税</translation>
        </message>
        <message>
            <source>excl.</source>
            <translation>不含税</translation>
        </message>
        <message>
            <source>not stated</source>
            <translation>未说明</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>完全匹配</translation>
        </message>
        <message>
            <source>likely</source>
            <translation>可能匹配</translation>
        </message>
        <message>
            <source>extra line</source>
            <translation>附加项</translation>
        </message>
    </context>
    <context>
        <name>PrintPreviewDialog</name>
        <message>
            <source>Print…</source>
            <translation>打印…</translation>
        </message>
        <message numerus="yes">
            <source>%n page(s)</source>
            <translation>
                <numerusform>共 %n 页</numerusform>
            </translation>
        </message>
        <message>
            <source>The printer could not be started.</source>
            <translation>无法启动打印机。</translation>
        </message>
    </context>
    <context>
        <name>QFileDialog</name>
        <message>
            <source>&amp;Look in:</source>
            <translation>查找范围(&amp;L)：</translation>
        </message>
        <message>
            <source>Files of &amp;type:</source>
            <translation>文件类型(&amp;T)：</translation>
        </message>
    </context>
    <context>
        <name>QuotePage</name>
        <message>
            <source>Quote</source>
            <translation>报价单</translation>
        </message>
        <message>
            <source>Quote details</source>
            <translation>报价信息</translation>
        </message>
        <message>
            <source>Quote number:</source>
            <translation>报价单号：</translation>
        </message>
        <message>
            <source>Valid for:</source>
            <translation>有效期：</translation>
        </message>
        <message>
            <source> days</source>
            <translation> 天</translation>
        </message>
        <message>
            <source>Buyer</source>
            <translation>采购方</translation>
        </message>
        <message>
            <source>Vendor</source>
            <translation>供应商</translation>
        </message>
        <message>
            <source>Name:</source>
            <translation>名称：</translation>
        </message>
        <message>
            <source>Contact:</source>
            <translation>联系人：</translation>
        </message>
        <message>
            <source>Address:</source>
            <translation>地址：</translation>
        </message>
        <message>
            <source>Phone:</source>
            <translation>电话：</translation>
        </message>
        <message>
            <source>Tax id (纳税人识别号):</source>
            <translation>纳税人识别号：</translation>
        </message>
        <message>
            <source>Bank (开户行):</source>
            <translation>开户行：</translation>
        </message>
        <message>
            <source>Account (账号):</source>
            <translation>账号：</translation>
        </message>
        <message>
            <source>Line items</source>
            <translation>明细</translation>
        </message>
        <message>
            <source>Buyer and vendor</source>
            <translation>采购方与供应商</translation>
        </message>
        <message>
            <source>Commercial terms</source>
            <translation>商务条款</translation>
        </message>
        <message>
            <source>Cost of ownership</source>
            <translation>总拥有成本</translation>
        </message>
        <message>
            <source>Export RFQ…</source>
            <translation>导出询价单…</translation>
        </message>
        <message>
            <source>The request for quotation to send to vendors (询价单): the configuration and what they are asked to state; no prices, notes or findings</source>
            <translation>发给供应商的询价单：配置及请其注明的事项；不含价格、备注和检查结果</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>类别</translation>
        </message>
        <message>
            <source>Part</source>
            <translation>部件</translation>
        </message>
        <message>
            <source>Key spec</source>
            <translation>关键规格</translation>
        </message>
        <message>
            <source>Quantity</source>
            <translation>数量</translation>
        </message>
        <message>
            <source>Unit price</source>
            <translation>单价</translation>
        </message>
        <message>
            <source>Amount</source>
            <translation>金额</translation>
        </message>
        <message>
            <source>Prices I enter include VAT (含税)</source>
            <translation>我录入的价格含税</translation>
        </message>
        <message>
            <source>Type a unit price into the table (F2 or double click) to use your own price; clear the cell to go back to the reference price.</source>
            <translation>在表格中输入单价（按 F2 或双击）即使用您自己的价格；清空单元格则恢复参考价。</translation>
        </message>
        <message>
            <source>Import prices…</source>
            <translation>导入价格…</translation>
        </message>
        <message>
            <source>Read a vendor's quote or a company price list (XLSX or CSV) and match its lines to the parts of this plan</source>
            <translation>读取供应商报价单或公司价格表（XLSX 或 CSV），并将其各行与本方案的零件匹配</translation>
        </message>
        <message>
            <source>Compare vendor quotes…</source>
            <translation>比较供应商报价…</translation>
        </message>
        <message>
            <source>Attach several vendors' quotes, compare them line by line with the rules run on each vendor's configuration, and choose one (三家比价)</source>
            <translation>附上多家供应商的报价，按各供应商的配置运行规则逐项比较，并选定一家（三家比价）</translation>
        </message>
        <message>
            <source>Export quote…</source>
            <translation>导出报价单…</translation>
        </message>
        <message>
            <source>Print…</source>
            <translation>打印…</translation>
        </message>
        <message>
            <source>Paper size</source>
            <translation>纸张大小</translation>
        </message>
        <message>
            <source>The quote could not be built: %1</source>
            <translation>无法生成报价单：%1</translation>
        </message>
        <message>
            <source>No public reference price: on request</source>
            <translation>无公开参考价：询价</translation>
        </message>
        <message>
            <source>Price of %1</source>
            <translation>价格日期 %1</translation>
        </message>
        <message>
            <source>Choose a GPU and server parts to build the quote.</source>
            <translation>请先选择 GPU 和服务器部件，再生成报价单。</translation>
        </message>
        <message>
            <source>Total: on request (no hardware part has a reference price; add company prices in a user catalog directory)</source>
            <translation>合计：询价（硬件部件均无参考价；可在用户目录中填写公司价格）</translation>
        </message>
        <message>
            <source>Priced subtotal (incomplete) %1 · VAT %2 on it %3 · not a final total: %4 part(s) are priced on request</source>
            <translation>已定价部分小计（不完整）%1 · 其增值税 %2 %3 · 非最终合计：另有 %4 个部件需询价</translation>
        </message>
        <message>
            <source>Subtotal %1 · VAT %2 %3 · Total %4 (%5)</source>
            <translation>小计 %1 · 增值税 %2 %3 · 合计 %4（%5）</translation>
        </message>
        <message>
            <source>Not a price: %1</source>
            <translation>不是有效的价格：%1</translation>
        </message>
        <message>
            <source>Unit price of %1</source>
            <translation>%1 的单价</translation>
        </message>
        <message>
            <source>Import prices</source>
            <translation>导入价格</translation>
        </message>
        <message>
            <source>Price lists (*.xlsx *.xlsm *.csv *.tsv *.txt)</source>
            <translation>价格表 (*.xlsx *.xlsm *.csv *.tsv *.txt)</translation>
        </message>
        <message>
            <source>Reading %1…</source>
            <translation>正在读取 %1…</translation>
        </message>
        <message>
            <source>Nothing imported: %1</source>
            <translation>未导入任何价格：%1</translation>
        </message>
        <message>
            <source>Nothing imported.</source>
            <translation>未导入任何价格。</translation>
        </message>
        <message>
            <source>Import prices from %1</source>
            <translation>从 %1 导入价格</translation>
        </message>
        <message numerus="yes">
            <source>%n price(s) imported from %1</source>
            <translation>
                <numerusform>已从 %1 导入 %n 个价格</numerusform>
            </translation>
        </message>
        <message>
            <source>Reference prices dated %1.</source>
            <translation>参考价日期：%1。</translation>
        </message>
        <message>
            <source>Issue quote %1</source>
            <translation>出具报价 %1</translation>
        </message>
        <message>
            <source>Export quote</source>
            <translation>导出报价单</translation>
        </message>
        <message>
            <source>Export request for quotation</source>
            <translation>导出询价单</translation>
        </message>
        <message>
            <source>Preparing the print preview…</source>
            <translation>正在准备打印预览…</translation>
        </message>
        <message>
            <source>Print</source>
            <translation>打印</translation>
        </message>
        <message>
            <source>Print preview — quote</source>
            <translation>打印预览 — 报价单</translation>
        </message>
    </context>
    <context>
        <name>QuoteTermsEditor</name>
        <message>
            <source>Delivery (交货期):</source>
            <translation>交货期：</translation>
        </message>
        <message>
            <source>Warranty and service (质保/售后):</source>
            <translation>质保/售后：</translation>
        </message>
        <message>
            <source>Payment terms (付款方式):</source>
            <translation>付款方式：</translation>
        </message>
        <message>
            <source>Invoice (发票类型):</source>
            <translation>发票类型：</translation>
        </message>
        <message>
            <source>Freight and installation (运费/安装调试):</source>
            <translation>运费/安装调试：</translation>
        </message>
        <message>
            <source>Issued quote:</source>
            <translation>已出具的报价：</translation>
        </message>
        <message>
            <source>e.g. within 30 days of signing the contract</source>
            <translation>例如：合同签订后 30 日内</translation>
        </message>
        <message>
            <source>e.g. 3-year on-site warranty, next-business-day</source>
            <translation>例如：整机三年上门质保，下一工作日响应</translation>
        </message>
        <message>
            <source>e.g. full payment within 30 days of acceptance</source>
            <translation>例如：验收合格后 30 日内付全款</translation>
        </message>
        <message>
            <source>e.g. freight, installation and commissioning included</source>
            <translation>例如：含运费及上门安装调试</translation>
        </message>
        <message>
            <source>Not stated</source>
            <translation>未约定</translation>
        </message>
        <message>
            <source>Special VAT invoice (增值税专用发票)</source>
            <translation>增值税专用发票</translation>
        </message>
        <message>
            <source>Ordinary VAT invoice (增值税普通发票)</source>
            <translation>增值税普通发票</translation>
        </message>
        <message>
            <source>New quote number</source>
            <translation>新报价编号</translation>
        </message>
        <message>
            <source>Issue a new number and date for the quote (the next export prints them); an issued quote otherwise keeps its number, date and validity</source>
            <translation>为报价出具新的编号和日期（下次导出时打印）；否则已出具的报价保持原编号、日期和有效期</translation>
        </message>
        <message>
            <source>Not issued yet: exporting or printing the priced quote issues its number and date, kept in the plan</source>
            <translation>尚未出具：导出或打印已定价的报价单时出具编号和日期，并保存在方案中</translation>
        </message>
        <message>
            <source>%1, dated %2, valid until %3</source>
            <translation>%1，日期 %2，有效期至 %3</translation>
        </message>
        <message>
            <source>The configuration changed since it was issued: issue a new number to quote it.</source>
            <translation>出具后配置已更改：如需按新配置报价，请出具新的报价编号。</translation>
        </message>
        <message>
            <source>New quote number %1</source>
            <translation>新报价编号 %1</translation>
        </message>
    </context>
    <context>
        <name>RequirementsPage</name>
        <message>
            <source>Requirements</source>
            <translation>需求分析</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>训练</translation>
        </message>
        <message>
            <source>Fine-tuning</source>
            <translation>微调</translation>
        </message>
        <message>
            <source>Inference</source>
            <translation>推理</translation>
        </message>
        <message>
            <source>Rendering</source>
            <translation>渲染</translation>
        </message>
        <message>
            <source>Scientific computing</source>
            <translation>科学计算</translation>
        </message>
        <message>
            <source>Data analysis</source>
            <translation>数据分析</translation>
        </message>
        <message>
            <source>As the workload implies</source>
            <translation>按工作负载默认</translation>
        </message>
        <message>
            <source>Full training</source>
            <translation>完整训练</translation>
        </message>
        <message>
            <source>Full fine-tuning</source>
            <translation>全参数微调</translation>
        </message>
        <message>
            <source>LoRA fine-tuning</source>
            <translation>LoRA 微调</translation>
        </message>
        <message>
            <source>Inference only</source>
            <translation>仅推理</translation>
        </message>
        <message>
            <source>Continuous (most days)</source>
            <translation>持续使用（几乎每天）</translation>
        </message>
        <message>
            <source>Occasional (bursts, projects)</source>
            <translation>偶尔使用（阶段性项目）</translation>
        </message>
        <message>
            <source>Low (public or shareable)</source>
            <translation>低（公开或可共享）</translation>
        </message>
        <message>
            <source>High (must stay on premises)</source>
            <translation>高（必须留在本地）</translation>
        </message>
        <message>
            <source>Data centre / server room</source>
            <translation>数据中心 / 机房</translation>
        </message>
        <message>
            <source>Office</source>
            <translation>办公室</translation>
        </message>
        <message>
            <source>Lab</source>
            <translation>实验室</translation>
        </message>
        <message>
            <source>Custom (enter the shape)</source>
            <translation>自定义（手动输入结构）</translation>
        </message>
        <message>
            <source>FP32</source>
            <translation>FP32</translation>
        </message>
        <message>
            <source>BF16/FP16 mixed (FP32 master)</source>
            <translation>BF16/FP16 混合精度（FP32 主权重）</translation>
        </message>
        <message>
            <source>BF16/FP16</source>
            <translation>BF16/FP16</translation>
        </message>
        <message>
            <source>FP8</source>
            <translation>FP8</translation>
        </message>
        <message>
            <source>INT8</source>
            <translation>INT8</translation>
        </message>
        <message>
            <source>INT4</source>
            <translation>INT4</translation>
        </message>
        <message>
            <source>Cheapest that fits</source>
            <translation>放得下的最省方案</translation>
        </message>
        <message>
            <source>Data parallel</source>
            <translation>数据并行</translation>
        </message>
        <message>
            <source>ZeRO-1</source>
            <translation>ZeRO-1</translation>
        </message>
        <message>
            <source>ZeRO-2</source>
            <translation>ZeRO-2</translation>
        </message>
        <message>
            <source>ZeRO-3 / FSDP</source>
            <translation>ZeRO-3 / FSDP</translation>
        </message>
        <message>
            <source>As the recipe does</source>
            <translation>按标准配方</translation>
        </message>
        <message>
            <source>On</source>
            <translation>开启</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>AdamW</source>
            <translation>AdamW</translation>
        </message>
        <message>
            <source>SGD with momentum</source>
            <translation>带动量的 SGD</translation>
        </message>
        <message>
            <source>8-bit Adam</source>
            <translation>8 位 Adam</translation>
        </message>
        <message>
            <source>Step 1 · Requirements</source>
            <translation>第 1 步 · 需求分析</translation>
        </message>
        <message>
            <source>Workload</source>
            <translation>工作负载</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Data, budget and scale</source>
            <translation>数据、预算与规模</translation>
        </message>
        <message>
            <source>Utilisation:</source>
            <translation>利用率：</translation>
        </message>
        <message>
            <source>not stated</source>
            <translation>未说明</translation>
        </message>
        <message>
            <source>Share of the service life the servers run at full load: the electricity in the cost of ownership (quote page)</source>
            <translation>服务器在使用年限内满载运行的时间占比：用于总拥有成本中的电费（报价单页）</translation>
        </message>
        <message>
            <source>Load config.json…</source>
            <translation>加载 config.json…</translation>
        </message>
        <message>
            <source>Size a model from its Hugging Face config.json</source>
            <translation>按 Hugging Face 的 config.json 估算模型显存</translation>
        </message>
        <message>
            <source>%1 (from the preset)</source>
            <translation>%1（来自预设）</translation>
        </message>
        <message>
            <source>GPU %1</source>
            <translation>GPU %1</translation>
        </message>
        <message>
            <source>one GPU</source>
            <translation>单个 GPU</translation>
        </message>
        <message>
            <source>Each GPU needs about &lt;b&gt;%1 GB&lt;/b&gt; (%2 GB with the margin) of its %3 GB: %4.</source>
            <translation>每个 GPU 约需 &lt;b&gt;%1 GB&lt;/b&gt;（加余量 %2 GB），每卡 %3 GB：%4。</translation>
        </message>
        <message>
            <source>Each GPU needs about &lt;b&gt;%1 GB&lt;/b&gt; (%2 GB with the margin): more than its %3 GB; %4.</source>
            <translation>每个 GPU 约需 &lt;b&gt;%1 GB&lt;/b&gt;（加余量 %2 GB），超过每卡 %3 GB：%4。</translation>
        </message>
        <message>
            <source>fits</source>
            <translation>放得下</translation>
        </message>
        <message>
            <source>does not fit</source>
            <translation>放不下</translation>
        </message>
        <message>
            <source> (the first %1 of %2 GPUs shown; every GPU holds the same share)</source>
            <translation>（显示 %2 个 GPU 中的前 %1 个；每个 GPU 的份额相同）</translation>
        </message>
        <message>
            <source>whole model</source>
            <translation>整个模型</translation>
        </message>
        <message>
            <source>About &lt;b&gt;%1 GB&lt;/b&gt; of GPU memory for the whole model on one GPU (%2 GB with the margin); choose the GPUs in step 2 to see each GPU's share.</source>
            <translation>整个模型放在一个 GPU 上约需 &lt;b&gt;%1 GB&lt;/b&gt; 显存（加余量 %2 GB）；在第 2 步选择 GPU 后显示每个 GPU 的份额。</translation>
        </message>
        <message>
            <source>Not loaded: %1</source>
            <translation>未加载：%1</translation>
        </message>
        <message>
            <source>Model config.json</source>
            <translation>模型 config.json</translation>
        </message>
        <message>
            <source>%1: %2 B parameters (%3 B active per token) from its config.json</source>
            <translation>%1：按 config.json 计 %2 B 参数（每 token 激活 %3 B）</translation>
        </message>
        <message>
            <source>Cloud or own hardware?</source>
            <translation>上云还是自建？</translation>
        </message>
        <message>
            <source>&amp;Workload:</source>
            <translation>工作负载(&amp;W)：</translation>
        </message>
        <message>
            <source>&amp;Mode:</source>
            <translation>方式(&amp;M)：</translation>
        </message>
        <message>
            <source>&amp;Usage:</source>
            <translation>使用频率(&amp;U)：</translation>
        </message>
        <message>
            <source>Data &amp;sensitivity:</source>
            <translation>数据敏感度(&amp;S)：</translation>
        </message>
        <message>
            <source>Where i&amp;t runs:</source>
            <translation>部署位置(&amp;T)：</translation>
        </message>
        <message>
            <source>H&amp;idden size:</source>
            <translation>隐藏维度(&amp;I)：</translation>
        </message>
        <message>
            <source>Bud&amp;get:</source>
            <translation>预算(&amp;G)：</translation>
        </message>
        <message>
            <source>&amp;Preset:</source>
            <translation>预设(&amp;P)：</translation>
        </message>
        <message>
            <source>GPU memory per GPU</source>
            <translation>每个 GPU 的显存</translation>
        </message>
        <message>
            <source>Parallelism, recipe and serving</source>
            <translation>并行方案、训练配方与推理服务</translation>
        </message>
        <message>
            <source>P&amp;arameters:</source>
            <translation>参数量(&amp;A)：</translation>
        </message>
        <message>
            <source>&amp;Layers:</source>
            <translation>层数(&amp;L)：</translation>
        </message>
        <message>
            <source>&amp;KV heads:</source>
            <translation>KV 头数(&amp;K)：</translation>
        </message>
        <message>
            <source>Attention heads:</source>
            <translation>注意力头数：</translation>
        </message>
        <message>
            <source>Vocabulary:</source>
            <translation>词表大小：</translation>
        </message>
        <message>
            <source>Sharding scheme:</source>
            <translation>切分方案：</translation>
        </message>
        <message>
            <source>Gradient checkpointing:</source>
            <translation>梯度检查点：</translation>
        </message>
        <message>
            <source>KV-cache precision:</source>
            <translation>KV 缓存精度：</translation>
        </message>
        <message>
            <source>Tensor parallel:</source>
            <translation>张量并行：</translation>
        </message>
        <message>
            <source>Pipeline parallel:</source>
            <translation>流水线并行：</translation>
        </message>
        <message>
            <source>LoRA rank:</source>
            <translation>LoRA 秩：</translation>
        </message>
        <message>
            <source>Concurrent users:</source>
            <translation>并发用户数：</translation>
        </message>
        <message>
            <source>Network between nodes:</source>
            <translation>节点间网络：</translation>
        </message>
        <message>
            <source>Head si&amp;ze:</source>
            <translation>头维度(&amp;Z)：</translation>
        </message>
        <message>
            <source>P&amp;recision:</source>
            <translation>精度(&amp;R)：</translation>
        </message>
        <message>
            <source>&amp;Optimizer:</source>
            <translation>优化器(&amp;O)：</translation>
        </message>
        <message>
            <source>&amp;Batch size:</source>
            <translation>批大小(&amp;B)：</translation>
        </message>
        <message>
            <source>Se&amp;quence length:</source>
            <translation>序列长度(&amp;Q)：</translation>
        </message>
        <message>
            <source>&amp;Dataset size:</source>
            <translation>数据集大小(&amp;D)：</translation>
        </message>
        <message>
            <source>&amp;Nodes:</source>
            <translation>节点数(&amp;N)：</translation>
        </message>
        <message>
            <source> B params</source>
            <translation> B 参数</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> tokens</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>自动</translation>
        </message>
        <message>
            <source>not a serving requirement</source>
            <translation>不是推理服务需求</translation>
        </message>
        <message>
            <source>from the NICs</source>
            <translation>按网卡计算</translation>
        </message>
        <message>
            <source>Offload the optimizer state to CPU RAM</source>
            <translation>把优化器状态卸载到 CPU 内存</translation>
        </message>
        <message>
            <source>Requests of the sequence length that must run at once (serving)</source>
            <translation>需要同时运行的、达到序列长度的请求数（推理服务）</translation>
        </message>
        <message>
            <source>1 = a single server; more = a multi-node cluster</source>
            <translation>1 = 单台服务器；大于 1 = 多节点集群</translation>
        </message>
        <message>
            <source>Key/value heads (grouped-query attention); used for the KV cache</source>
            <translation>键/值头数（分组查询注意力），用于估算 KV 缓存</translation>
        </message>
        <message>
            <source>Needs MIG (GPU partitioning)</source>
            <translation>需要 MIG（GPU 分区）</translation>
        </message>
        <message>
            <source>Needs NVLink between GPUs</source>
            <translation>需要 GPU 间 NVLink</translation>
        </message>
        <message>
            <source>Enter the model size to see the estimate.</source>
            <translation>输入模型规模后显示估算。</translation>
        </message>
        <message>
            <source>Not enough information for an estimate yet.</source>
            <translation>信息不足，暂无法估算。</translation>
        </message>
        <message>
            <source>Advice appears once the usage and budget are known.</source>
            <translation>填写使用频率和预算后显示建议。</translation>
        </message>
        <message>
            <source>Model preset</source>
            <translation>模型预设</translation>
        </message>
    </context>
    <context>
        <name>ServerPage</name>
        <message>
            <source>%1 cores</source>
            <translation>%1 核</translation>
        </message>
        <message>
            <source>%1 PCIe lanes</source>
            <translation>%1 条 PCIe 通道</translation>
        </message>
        <message>
            <source>socket limit unknown</source>
            <translation>最多几路未知</translation>
        </message>
        <message>
            <source>up to %1 sockets</source>
            <translation>最多 %1 路</translation>
        </message>
        <message>
            <source>no ECC</source>
            <translation>无 ECC</translation>
        </message>
        <message>
            <source>%1 W at 200-240 V</source>
            <translation>200-240 V 时 %1 W</translation>
        </message>
        <message>
            <source>%1 W at 220-240 V</source>
            <translation>220-240 V 下 %1 W</translation>
        </message>
        <message>
            <source>%1 at 100-127 V</source>
            <translation>100-127 V 时 %1</translation>
        </message>
        <message>
            <source>%1U rack</source>
            <translation>%1U 机架式</translation>
        </message>
        <message>
            <source>tower</source>
            <translation>塔式</translation>
        </message>
        <message>
            <source>rack</source>
            <translation>机架式</translation>
        </message>
        <message>
            <source>%1 GPUs (%2)</source>
            <translation>%1 个 GPU 位（%2）</translation>
        </message>
        <message>
            <source>%1 PSU bays</source>
            <translation>%1 个电源位</translation>
        </message>
        <message>
            <source>%1 (not in the catalog)</source>
            <translation>%1（不在部件目录中）</translation>
        </message>
        <message>
            <source>— choose —</source>
            <translation>— 请选择 —</translation>
        </message>
        <message>
            <source>Add storage</source>
            <translation>添加存储</translation>
        </message>
        <message>
            <source>Add network card</source>
            <translation>添加网卡</translation>
        </message>
        <message>
            <source>Remove this row</source>
            <translation>删除此行</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Remove row</source>
            <translation>删除行</translation>
        </message>
        <message>
            <source>System</source>
            <translation>系统盘</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>数据盘</translation>
        </message>
        <message>
            <source>Backup</source>
            <translation>备份盘</translation>
        </message>
        <message>
            <source>Scratch</source>
            <translation>缓存盘</translation>
        </message>
        <message>
            <source>PCIe lanes wanted %1, available %2 (CPUs %3, PCIe switches %4)</source>
            <translation>需要 PCIe 通道 %1，可用 %2（CPU %3，PCIe 交换芯片 %4）</translation>
        </message>
        <message>
            <source>Running narrower: %1</source>
            <translation>降速运行：%1</translation>
        </message>
        <message>
            <source>Heat %1 W needs about %2 CFM; the chassis moves %3 CFM</source>
            <translation>发热 %1 W 约需 %2 CFM 风量；机箱风量 %3 CFM</translation>
        </message>
        <message>
            <source>High line, 200-240 V (not narrowed down)</source>
            <translation>高线 200-240 V（未细分）</translation>
        </message>
        <message>
            <source>220 V (China mainland)</source>
            <translation>220 V 级（中国大陆）</translation>
        </message>
        <message>
            <source>230 V</source>
            <translation>230 V 级</translation>
        </message>
        <message>
            <source>240 V</source>
            <translation>240 V 级</translation>
        </message>
        <message>
            <source>High line, 200-208 V</source>
            <translation>高线 200-208 V</translation>
        </message>
        <message>
            <source>Low line, 100-127 V</source>
            <translation>低线 100-127 V（110 V 级）</translation>
        </message>
        <message>
            <source>Server configuration</source>
            <translation>服务器配置</translation>
        </message>
        <message>
            <source>not supported</source>
            <translation>不支持</translation>
        </message>
        <message>
            <source>not published</source>
            <translation>未公布</translation>
        </message>
        <message>
            <source>liquid-cooled</source>
            <translation>液冷</translation>
        </message>
        <message>
            <source>air-cooled</source>
            <translation>风冷</translation>
        </message>
        <message>
            <source>Per server at the wall: %1 W (%2), %3 BTU/h, %4 A at %5 V</source>
            <translation>单台墙上功率：%1 W（%2），%3 BTU/h，%5 V 下 %4 A</translation>
        </message>
        <message>
            <source>vendor maximum</source>
            <translation>厂商最大值</translation>
        </message>
        <message>
            <source>model, PSU efficiency %1</source>
            <translation>模型估算，电源效率 %1</translation>
        </message>
        <message>
            <source>Estimated draw %1 W (with %2 headroom: %3 W); usable PSU capacity %4 W</source>
            <translation>估算功耗 %1 W（含 %2 余量：%3 W）；可用电源容量 %4 W</translation>
        </message>
        <message>
            <source>PDU per feed: %1-phase, %2 A (%3 A rating)</source>
            <translation>每路 PDU：%1 相，%2 A（选 %3 A 规格）</translation>
        </message>
        <message>
            <source>Per rack: %1 × %2 W = %3 kW, %4 BTU/h; %5 rack(s) for %6 node(s)</source>
            <translation>每机柜：%1 × %2 W = %3 kW，%4 BTU/h；%6 个节点需 %5 个机柜</translation>
        </message>
        <message>
            <source>Space: %1 × %2U of %3U usable</source>
            <translation>空间：%1 × %2U（可用 %3U）</translation>
        </message>
        <message>
            <source>Processor</source>
            <translation>处理器</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>内存</translation>
        </message>
        <message>
            <source>Storage (system, data, backup)</source>
            <translation>存储（系统、数据、备份）</translation>
        </message>
        <message>
            <source>Network cards</source>
            <translation>网卡</translation>
        </message>
        <message>
            <source>Chassis and power</source>
            <translation>机箱与电源</translation>
        </message>
        <message>
            <source>Live budget</source>
            <translation>实时预算</translation>
        </message>
        <message>
            <source>CPU:</source>
            <translation>CPU：</translation>
        </message>
        <message>
            <source>Sockets:</source>
            <translation>路数：</translation>
        </message>
        <message>
            <source>Module:</source>
            <translation>内存条：</translation>
        </message>
        <message>
            <source>Modules:</source>
            <translation>条数：</translation>
        </message>
        <message>
            <source>Total:</source>
            <translation>合计：</translation>
        </message>
        <message>
            <source>Chassis:</source>
            <translation>机箱：</translation>
        </message>
        <message>
            <source>PSU model:</source>
            <translation>电源型号：</translation>
        </message>
        <message>
            <source>PSUs:</source>
            <translation>电源数量：</translation>
        </message>
        <message>
            <source>Redundancy:</source>
            <translation>冗余：</translation>
        </message>
        <message>
            <source>Input voltage:</source>
            <translation>输入电压：</translation>
        </message>
        <message>
            <source>Rack power limit:</source>
            <translation>机柜功率上限：</translation>
        </message>
        <message>
            <source>Servers per rack:</source>
            <translation>每柜服务器数：</translation>
        </message>
        <message>
            <source>None</source>
            <translation>无</translation>
        </message>
        <message>
            <source>not set</source>
            <translation>未设置</translation>
        </message>
        <message>
            <source>Auto-configure</source>
            <translation>自动配置</translation>
        </message>
        <message>
            <source>Choose a GPU in step 2 first: auto-configure builds the server around it.</source>
            <translation>请先在第 2 步选择 GPU：自动配置会围绕它配置服务器。</translation>
        </message>
        <message>
            <source>Fill CPU, memory, storage, network, chassis and PSUs from the GPU choice and the requirements (one undo step)</source>
            <translation>根据 GPU 选型和需求自动填写 CPU、内存、存储、网络、机箱和电源（可一步撤销）</translation>
        </message>
        <message>
            <source>Power draw vs usable PSU capacity</source>
            <translation>功耗 / 可用电源容量</translation>
        </message>
        <message>
            <source>PCIe lanes used vs available</source>
            <translation>PCIe 通道 已用 / 可用</translation>
        </message>
        <message>
            <source>Airflow needed vs chassis</source>
            <translation>所需风量 / 机箱风量</translation>
        </message>
        <message>
            <source>Per rack: power at the wall vs rack limit</source>
            <translation>每机柜：墙上功率 / 机柜上限</translation>
        </message>
        <message>
            <source>— choose a CPU —</source>
            <translation>— 选择 CPU —</translation>
        </message>
        <message>
            <source>— choose memory —</source>
            <translation>— 选择内存 —</translation>
        </message>
        <message>
            <source>%1 GiB, %2</source>
            <translation>%1 GiB，%2</translation>
        </message>
        <message>
            <source>ECC</source>
            <translation>ECC</translation>
        </message>
        <message>
            <source>— choose a chassis —</source>
            <translation>— 选择机箱 —</translation>
        </message>
        <message>
            <source>— the chassis' own PSUs —</source>
            <translation>— 机箱自带电源 —</translation>
        </message>
        <message>
            <source>Changed since auto-configure; it had proposed:</source>
            <translation>自动配置后已手动修改；当时的建议是：</translation>
        </message>
        <message>
            <source>Not available yet</source>
            <translation>暂无数据</translation>
        </message>
        <message>
            <source>choose a chassis</source>
            <translation>请选择机箱</translation>
        </message>
        <message>
            <source>chassis airflow not published</source>
            <translation>机箱风量未公开</translation>
        </message>
        <message>
            <source>choose a CPU</source>
            <translation>请选择 CPU</translation>
        </message>
        <message>
            <source>CPU lanes not published</source>
            <translation>CPU 通道数未公开</translation>
        </message>
        <message>
            <source>choose PSUs</source>
            <translation>请选择电源</translation>
        </message>
        <message>
            <source>PSU capacity not published</source>
            <translation>电源容量未公开</translation>
        </message>
        <message>
            <source>Auto-configure failed: %1</source>
            <translation>自动配置失败：%1</translation>
        </message>
    </context>
    <context>
        <name>StepPage</name>
        <message>
            <source>Step %1 · %2</source>
            <translation>第 %1 步 · %2</translation>
        </message>
    </context>
    <context>
        <name>TcoEditor</name>
        <message>
            <source>Electricity price, source:</source>
            <translation>电价及来源：</translation>
        </message>
        <message>
            <source>PUE of the room:</source>
            <translation>机房 PUE：</translation>
        </message>
        <message>
            <source>PUE source:</source>
            <translation>PUE 来源：</translation>
        </message>
        <message>
            <source>Utilisation (share of time at full load):</source>
            <translation>利用率（满载运行时间占比）：</translation>
        </message>
        <message>
            <source>Service life:</source>
            <translation>使用年限：</translation>
        </message>
        <message>
            <source>Cloud GPU rent, source:</source>
            <translation>云 GPU 租金及来源：</translation>
        </message>
        <message>
            <source>not entered</source>
            <translation>未填写</translation>
        </message>
        <message>
            <source> CNY/kWh</source>
            <translation> 元/kWh</translation>
        </message>
        <message>
            <source> years</source>
            <translation> 年</translation>
        </message>
        <message>
            <source> CNY per GPU-hour</source>
            <translation> 元/卡·小时</translation>
        </message>
        <message>
            <source>where the price comes from: your bill, the province's monthly agency price</source>
            <translation>电价来源：本单位电费单、本省每月公布的代理购电价格</translation>
        </message>
        <message>
            <source>where the PUE comes from</source>
            <translation>PUE 来源</translation>
        </message>
        <message>
            <source>which cloud offer</source>
            <translation>哪家云服务的报价</translation>
        </message>
        <message>
            <source>No default: industrial and commercial electricity is priced by province and month since the 2021 reform (docs/tco.md)</source>
            <translation>无默认值：自 2021 年改革起，工商业电价按省份、按月形成（见 docs/tco.md）</translation>
        </message>
        <message>
            <source>Published figures…</source>
            <translation>公开数据…</translation>
        </message>
        <message>
            <source>1.3 — target for new large data centres (MIIT 2021, NDRC 2021)</source>
            <translation>1.3 —— 新建大型数据中心目标值（工信部 2021、国家发改委 2021）</translation>
        </message>
        <message>
            <source>1.49 — China's average in 2021 (as reported)</source>
            <translation>1.49 —— 2021 年全国平均（据报道）</translation>
        </message>
        <message>
            <source>1.0 — the servers alone (no room overhead counted)</source>
            <translation>1.0 —— 仅计服务器本身（不计机房开销）</translation>
        </message>
        <message>
            <source>the servers alone, no room overhead</source>
            <translation>仅计服务器本身，不计机房开销</translation>
        </message>
        <message>
            <source>PUE %1</source>
            <translation>PUE %1</translation>
        </message>
    </context>
    <context>
        <name>VendorComparisonDialog</name>
        <message>
            <source>Vendors' quotes compared</source>
            <translation>供应商报价比较</translation>
        </message>
    </context>
    <context>
        <name>VendorComparisonView</name>
        <message>
            <source>Import vendor quote…</source>
            <translation>导入供应商报价…</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Choose this offer</source>
            <translation>选定此报价</translation>
        </message>
        <message>
            <source>Export comparison PDF…</source>
            <translation>导出比价表 PDF…</translation>
        </message>
        <message>
            <source>Vendor</source>
            <translation>供应商</translation>
        </message>
        <message>
            <source>Quote number / date</source>
            <translation>报价编号 / 日期</translation>
        </message>
        <message>
            <source>Delivery</source>
            <translation>交货期</translation>
        </message>
        <message>
            <source>Warranty</source>
            <translation>质保 / 售后</translation>
        </message>
        <message>
            <source>Payment terms</source>
            <translation>付款方式</translation>
        </message>
        <message>
            <source>Total incl. VAT</source>
            <translation>含税合计</translation>
        </message>
        <message>
            <source>Rules on the vendor's variant</source>
            <translation>规则检查（按该供应商配置）</translation>
        </message>
        <message>
            <source>Budget</source>
            <translation>预算</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>No vendor quote attached yet: import each vendor's quote (XLSX or CSV) to compare them.</source>
            <translation>尚未附供应商报价：请逐家导入报价（XLSX 或 CSV）以进行比较。</translation>
        </message>
        <message>
            <source>Lowest compliant offer: %1.</source>
            <translation>最低合规报价：%1。</translation>
        </message>
        <message>
            <source>Provisional: %1.</source>
            <translation>暂定：%1。</translation>
        </message>
        <message>
            <source>Chosen: %1.</source>
            <translation>已选定：%1。</translation>
        </message>
        <message>
            <source>at least %1 (lower bound: %2 line(s) unpriced)</source>
            <translation>至少 %1（下限：%2 项未报价）</translation>
        </message>
        <message>
            <source>within budget</source>
            <translation>在预算内</translation>
        </message>
        <message>
            <source>over budget</source>
            <translation>超出预算</translation>
        </message>
        <message>
            <source>unknown (unpriced lines)</source>
            <translation>未知（有未报价项）</translation>
        </message>
        <message>
            <source>no budget set</source>
            <translation>未设预算</translation>
        </message>
        <message>
            <source>★ lowest compliant (provisional)</source>
            <translation>★ 最低合规（暂定）</translation>
        </message>
        <message>
            <source>★ lowest compliant</source>
            <translation>★ 最低合规</translation>
        </message>
        <message>
            <source>✔ chosen</source>
            <translation>✔ 已选定</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>项目</translation>
        </message>
        <message>
            <source>Qty</source>
            <translation>数量</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>not quoted</source>
            <translation>未报价</translation>
        </message>
        <message>
            <source>incl. VAT</source>
            <translation>含税</translation>
        </message>
        <message>
            <source>excl. VAT</source>
            <translation>不含税</translation>
        </message>
        <message>
            <source>VAT not stated</source>
            <translation>未注明含税</translation>
        </message>
        <message>
            <source>line incl. VAT %1</source>
            <translation>本行含税 %1</translation>
        </message>
        <message>
            <source>nothing to say about its variant.</source>
            <translation>该供应商配置无新增问题。</translation>
        </message>
        <message>
            <source>Choose the offer of %1</source>
            <translation>选定 %1 的报价</translation>
        </message>
        <message>
            <source>Remove the quote of %1</source>
            <translation>删除 %1 的报价</translation>
        </message>
        <message>
            <source>Import vendor quote</source>
            <translation>导入供应商报价</translation>
        </message>
        <message>
            <source>Quotes (*.xlsx *.xlsm *.csv *.tsv *.txt)</source>
            <translation>报价单 (*.xlsx *.xlsm *.csv *.tsv *.txt)</translation>
        </message>
        <message>
            <source>Reading %1…</source>
            <translation>正在读取 %1…</translation>
        </message>
        <message>
            <source>Nothing imported: %1</source>
            <translation>未导入任何价格：%1</translation>
        </message>
        <message>
            <source>Nothing imported.</source>
            <translation>未导入任何价格。</translation>
        </message>
        <message>
            <source>Import the quote of %1</source>
            <translation>导入 %1 的报价</translation>
        </message>
        <message>
            <source>Quote of %1 attached (%2 line(s)).</source>
            <translation>已附上 %1 的报价（%2 行）。</translation>
        </message>
        <message>
            <source>Export comparison</source>
            <translation>导出比价表</translation>
        </message>
    </context>
    <context>
        <name>VendorQuoteDialog</name>
        <message>
            <source>Import a vendor's quote — %1</source>
            <translation>导入供应商报价 — %1</translation>
        </message>
        <message>
            <source>Vendor:</source>
            <translation>供应商：</translation>
        </message>
        <message>
            <source>Quote number:</source>
            <translation>报价单号：</translation>
        </message>
        <message>
            <source>Quote date:</source>
            <translation>报价日期：</translation>
        </message>
        <message>
            <source>Delivery:</source>
            <translation>交货期：</translation>
        </message>
        <message>
            <source>Warranty:</source>
            <translation>质保 / 售后：</translation>
        </message>
        <message>
            <source>Payment terms:</source>
            <translation>付款方式：</translation>
        </message>
        <message>
            <source>Columns (remembered for this vendor)</source>
            <translation>列对应关系（按供应商记住）</translation>
        </message>
        <message>
            <source>Part number / model</source>
            <translation>型号 / 料号</translation>
        </message>
        <message>
            <source>Item name</source>
            <translation>品名</translation>
        </message>
        <message>
            <source>Specification</source>
            <translation>规格</translation>
        </message>
        <message>
            <source>Unit price</source>
            <translation>单价</translation>
        </message>
        <message>
            <source>Unit price incl. VAT</source>
            <translation>含税单价</translation>
        </message>
        <message>
            <source>Unit price excl. VAT</source>
            <translation>不含税单价</translation>
        </message>
        <message>
            <source>Quantity</source>
            <translation>数量</translation>
        </message>
        <message>
            <source>Amount</source>
            <translation>金额</translation>
        </message>
        <message>
            <source>VAT included (yes/no)</source>
            <translation>是否含税</translation>
        </message>
        <message>
            <source>Date</source>
            <translation>日期</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>(not used)</source>
            <translation>（不使用）</translation>
        </message>
        <message>
            <source>Read again with these columns</source>
            <translation>按这些列重新读取</translation>
        </message>
        <message>
            <source>Row</source>
            <translation>行</translation>
        </message>
        <message>
            <source>In the file</source>
            <translation>文件中的内容</translation>
        </message>
        <message>
            <source>Qty</source>
            <translation>数量</translation>
        </message>
        <message>
            <source>Prices plan part</source>
            <translation>对应方案零件</translation>
        </message>
        <message>
            <source>Offered</source>
            <translation>供应商提供</translation>
        </message>
        <message>
            <source>Match</source>
            <translation>匹配</translation>
        </message>
        <message>
            <source>Attach quote</source>
            <translation>附上报价</translation>
        </message>
        <message>
            <source>%1 line(s) price a part of the plan (%2 a substitute); %3 extra line(s) (installation, shipping, warranty…) are kept as they are.</source>
            <translation>%1 行对应方案零件（其中 %2 行为替代件）；%3 行为附加项（安装、运输、延保等），原样保留。</translation>
        </message>
        <message>
            <source>Extra line (no plan part)</source>
            <translation>附加项（不对应方案零件）</translation>
        </message>
        <message>
            <source>The plan's part</source>
            <translation>方案中的零件</translation>
        </message>
        <message>
            <source>Substitute: %1</source>
            <translation>替代：%1</translation>
        </message>
        <message>
            <source>Substitute not in the catalog</source>
            <translation>替代件（目录中没有）</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>完全匹配</translation>
        </message>
        <message>
            <source>likely</source>
            <translation>可能匹配</translation>
        </message>
        <message>
            <source>no match</source>
            <translation>未匹配</translation>
        </message>
        <message>
            <source>not priced</source>
            <translation>未报价</translation>
        </message>
    </context>
    <context>
        <name>VerifyPage</name>
        <message>
            <source>on</source>
            <translation>开</translation>
        </message>
        <message>
            <source>off</source>
            <translation>关</translation>
        </message>
        <message>
            <source>Verification</source>
            <translation>验证测试</translation>
        </message>
        <message>
            <source>pass</source>
            <translation>通过</translation>
        </message>
        <message>
            <source>fail</source>
            <translation>未通过</translation>
        </message>
        <message>
            <source>warn</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>skip</source>
            <translation>跳过</translation>
        </message>
        <message>
            <source>no report yet</source>
            <translation>尚无报告</translation>
        </message>
        <message>
            <source>Run on this machine (%1)</source>
            <translation>在本机运行（%1）</translation>
        </message>
        <message>
            <source>Measures this computer (%1), not the target server: use it only when the app runs on the machine being delivered. For the target, save the probe, run it there and import its output.</source>
            <translation>测量的是这台电脑（%1），而不是目标服务器：仅当本程序运行在交付的机器上时使用。目标服务器请保存探针，在其上运行后导入其输出。</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Import reports…</source>
            <translation>导入报告…</translation>
        </message>
        <message>
            <source>Raw facts written by the probe, or reports written by `gpu-procure verify --json`, one per node</source>
            <translation>探针采集的原始数据，或 `gpu-procure verify --json` 写出的报告，每个节点一个</translation>
        </message>
        <message>
            <source>Import a folder…</source>
            <translation>导入文件夹…</translation>
        </message>
        <message>
            <source>Every .json file in a folder: raw facts from the probe (judged against this plan) or node reports</source>
            <translation>文件夹中的每个 .json 文件：探针采集的原始数据（按本方案评判）或节点报告</translation>
        </message>
        <message>
            <source>Save the probe for the target machine…</source>
            <translation>保存探针到目标机器…</translation>
        </message>
        <message>
            <source>One file that runs with the target machine's python3 (3.6 or newer), nothing to install: python3 gpu-procure-probe.pyz -o node.json</source>
            <translation>单个文件，用目标机器自带的 python3（3.6 及以上）运行，无需安装：python3 gpu-procure-probe.pyz -o node.json</translation>
        </message>
        <message>
            <source>Handover files…</source>
            <translation>交接文件…</translation>
        </message>
        <message>
            <source>For the nodes that passed: setup scripts (persistence mode, nouveau blacklist, planned power limits, dcgm-exporter), Prometheus targets and alert rules</source>
            <translation>为验收通过的节点生成：配置脚本（常驻模式、屏蔽 nouveau、计划功耗上限、dcgm-exporter）、Prometheus 采集目标与告警规则</translation>
        </message>
        <message>
            <source>Remove selected report</source>
            <translation>移除所选报告</translation>
        </message>
        <message>
            <source>Detach the report selected in the Nodes table from the plan (Undo brings it back)</source>
            <translation>从方案中移除“节点”表中所选的报告（可撤销）</translation>
        </message>
        <message>
            <source>Remove all reports</source>
            <translation>移除全部报告</translation>
        </message>
        <message>
            <source>Export cluster report…</source>
            <translation>导出集群验收报告…</translation>
        </message>
        <message>
            <source>The cluster acceptance report (PDF): every planned node and GPU with serial numbers and results, the failures, unknowns and the nodes that have not reported</source>
            <translation>集群验收报告（PDF）：方案中每个节点和 GPU 的序列号与结果、不通过项、未知项，以及尚未提交报告的节点</translation>
        </message>
        <message>
            <source>On the target machines</source>
            <translation>在目标机器上</translation>
        </message>
        <message>
            <source>node names, e.g. gpu[01-16] or gpu01,gpu02</source>
            <translation>节点名，例如 gpu[01-16] 或 gpu01,gpu02</translation>
        </message>
        <message>
            <source>The machines being delivered, as pdsh and clush take them: the command uses them and the nodes that have not reported are named</source>
            <translation>到货的机器，写法与 pdsh、clush 相同：命令中使用这些节点名，并列出尚未提交报告的节点</translation>
        </message>
        <message>
            <source>&amp;Run with:</source>
            <translation>运行方式(&amp;R)：</translation>
        </message>
        <message>
            <source>one machine at a time</source>
            <translation>逐台运行</translation>
        </message>
        <message>
            <source>ClusterShell (clush)</source>
            <translation>ClusterShell（clush）</translation>
        </message>
        <message>
            <source>pdsh</source>
            <translation>pdsh</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>复制(&amp;C)</translation>
        </message>
        <message>
            <source>Copy these lines to the clipboard</source>
            <translation>把这些命令复制到剪贴板</translation>
        </message>
        <message>
            <source>Nodes</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>GPUs</source>
            <translation>GPU</translation>
        </message>
        <message>
            <source>Checks</source>
            <translation>检查项</translation>
        </message>
        <message>
            <source>Node</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>OS</source>
            <translation>操作系统</translation>
        </message>
        <message>
            <source>Driver</source>
            <translation>驱动</translation>
        </message>
        <message>
            <source>CUDA</source>
            <translation>CUDA</translation>
        </message>
        <message>
            <source>Checks (pass/fail/warn)</source>
            <translation>检查项（通过/失败/警告）</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>GPU</source>
            <translation>GPU</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Memory (MiB)</source>
            <translation>显存 (MiB)</translation>
        </message>
        <message>
            <source>PCIe gen (now/max)</source>
            <translation>PCIe 代数（当前/最大）</translation>
        </message>
        <message>
            <source>PCIe width (now/max)</source>
            <translation>PCIe 位宽（当前/最大）</translation>
        </message>
        <message>
            <source>Power limit (W)</source>
            <translation>功耗上限 (W)</translation>
        </message>
        <message>
            <source>Persistence</source>
            <translation>持久模式</translation>
        </message>
        <message>
            <source>ECC</source>
            <translation>ECC</translation>
        </message>
        <message>
            <source>Temperature (°C)</source>
            <translation>温度 (°C)</translation>
        </message>
        <message>
            <source>Check</source>
            <translation>检查项</translation>
        </message>
        <message>
            <source>Expected</source>
            <translation>期望</translation>
        </message>
        <message>
            <source>Actual</source>
            <translation>实际</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>说明</translation>
        </message>
        <message>
            <source>(unknown host)</source>
            <translation>（未知主机）</translation>
        </message>
        <message>
            <source>no report from this node yet</source>
            <translation>该节点尚未提交报告</translation>
        </message>
        <message>
            <source>(all nodes)</source>
            <translation>（全部节点）</translation>
        </message>
        <message>
            <source>The node names cannot be read: %1</source>
            <translation>无法解析节点名：%1</translation>
        </message>
        <message>
            <source>First save the probe (and the plan) for the target machine.</source>
            <translation>请先保存探针（和方案）以带到目标机器。</translation>
        </message>
        <message>
            <source>Save the plan to put its path in the judge line.</source>
            <translation>保存方案后，评判命令中会填入方案的路径。</translation>
        </message>
        <message>
            <source>Afterwards import the .json files with “Import reports…”, or the reports folder with “Import a folder…”: each node is judged against this plan.</source>
            <translation>之后用“导入报告…”导入这些 .json 文件，或用“导入文件夹…”导入报告文件夹：每个节点都按本方案评判。</translation>
        </message>
        <message>
            <source>Copied the commands to the clipboard.</source>
            <translation>命令已复制到剪贴板。</translation>
        </message>
        <message>
            <source>%1 of %2 planned nodes reported</source>
            <translation>计划 %2 个节点，已收到 %1 个的报告</translation>
        </message>
        <message>
            <source>%1 of %2 planned nodes reported, %3 GPUs: ✔ %4 passed, ⚠ %5 with warnings, ✘ %6 failed, ? %7 unknown.</source>
            <translation>计划 %2 个节点，已收到 %1 个的报告，共 %3 块 GPU：✔ %4 个通过，⚠ %5 个有警告，✘ %6 个不通过，? %7 个未知。</translation>
        </message>
        <message>
            <source>Saved %1 (%2 KB) and the plan %3. On each target machine run: python3 gpu-procure-probe.pyz -o $(hostname).json — then import the files here.</source>
            <translation>已保存 %1（%2 KB）和方案 %3。在每台目标机器上运行：python3 gpu-procure-probe.pyz -o $(hostname).json，然后在此导入这些文件。</translation>
        </message>
        <message>
            <source>cluster-acceptance</source>
            <translation>集群验收报告</translation>
        </message>
        <message>
            <source>Export cluster report</source>
            <translation>导出集群验收报告</translation>
        </message>
        <message>
            <source>No verification report attached yet.</source>
            <translation>尚未附加验证报告。</translation>
        </message>
        <message>
            <source>Node na&amp;mes:</source>
            <translation>节点名(&amp;M)：</translation>
        </message>
        <message>
            <source>Planned nodes without a report yet: %1.</source>
            <translation>尚未提交报告的计划节点：%1 个。</translation>
        </message>
        <message>
            <source>No report yet from: %1, and %2 more planned nodes the list does not name.</source>
            <translation>尚未提交报告：%1；另有 %2 个计划节点未在名单中列出。</translation>
        </message>
        <message>
            <source>No report yet from: %1.</source>
            <translation>尚未提交报告：%1。</translation>
        </message>
        <message>
            <source>Not in the node list: %1.</source>
            <translation>不在节点名单中：%1。</translation>
        </message>
        <message>
            <source>Every planned node reported and passed.</source>
            <translation>所有计划节点均已提交报告并全部通过。</translation>
        </message>
        <message>
            <source>Select a check in the Checks tab to read its full message, the expected and actual values and what to do.</source>
            <translation>在“检查”标签页中选择一项检查，即可查看完整说明、期望值、实际值和处理方法。</translation>
        </message>
        <message>
            <source>Message and what to do</source>
            <translation>说明与处理方法</translation>
        </message>
        <message>
            <source>Probing this machine…</source>
            <translation>正在探测本机…</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>正在取消…</translation>
        </message>
        <message>
            <source>Attach a report from another machine?</source>
            <translation>附加另一台机器的报告？</translation>
        </message>
        <message>
            <source>%1 does not look like the machine this plan buys: %2

Attaching its report puts this computer's measurements in the plan, its checklist and the signed PDF. Attach it anyway?</source>
            <translation>%1 看起来不是本方案采购的机器：%2

附加其报告会把这台电脑的测量结果写入方案、检查清单和签署的 PDF。仍要附加吗？</translation>
        </message>
        <message>
            <source>Not attached: the report of %1 was discarded (%2).</source>
            <translation>未附加：已丢弃 %1 的报告（%2）。</translation>
        </message>
        <message>
            <source>Verify this machine</source>
            <translation>验证本机</translation>
        </message>
        <message>
            <source>Could not verify this machine: %1</source>
            <translation>无法验证本机：%1</translation>
        </message>
        <message>
            <source>This machine has been verified; the report is attached.</source>
            <translation>本机已验证，报告已附加到方案。</translation>
        </message>
        <message>
            <source>it has no NVIDIA GPU</source>
            <translation>它没有 NVIDIA GPU</translation>
        </message>
        <message>
            <source>its GPUs are %1, the plan buys %2</source>
            <translation>它的 GPU 是 %1，方案采购的是 %2</translation>
        </message>
        <message>
            <source>Verification failed: %1</source>
            <translation>验证失败：%1</translation>
        </message>
        <message>
            <source>Verification cancelled; nothing was attached.</source>
            <translation>验证已取消，未附加任何报告。</translation>
        </message>
        <message>
            <source>Import verification reports</source>
            <translation>导入验证报告</translation>
        </message>
        <message>
            <source>Verification reports (*.json);;All files (*)</source>
            <translation>验证报告 (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Import a folder of reports</source>
            <translation>导入报告文件夹</translation>
        </message>
        <message>
            <source>Save the probe for the target machine</source>
            <translation>保存探针到目标机器</translation>
        </message>
        <message>
            <source>Handover files</source>
            <translation>交接文件</translation>
        </message>
        <message>
            <source>No node passed acceptance against this plan:</source>
            <translation>没有节点按本方案通过验收：</translation>
        </message>
        <message numerus="yes">
            <source>Handover for %n accepted node(s) written to %1.</source>
            <translation>
                <numerusform>已为 %n 个验收通过的节点写入交接文件到 %1。</numerusform>
            </translation>
        </message>
        <message>
            <source>Left out:</source>
            <translation>未纳入：</translation>
        </message>
        <message numerus="yes">
            <source>Importing %n report(s)…</source>
            <translation>
                <numerusform>正在导入 %n 份报告…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Import %n report(s)</source>
            <translation>
                <numerusform>导入 %n 份报告</numerusform>
            </translation>
        </message>
        <message>
            <source>These files were not imported:</source>
            <translation>以下文件未导入：</translation>
        </message>
        <message numerus="yes">
            <source>Imported %n report(s).</source>
            <translation>
                <numerusform>已导入 %n 份报告。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remove %n verification report(s)</source>
            <translation>
                <numerusform>移除 %n 份验证报告</numerusform>
            </translation>
        </message>
        <message>
            <source>Remove verification reports</source>
            <translation>移除验证报告</translation>
        </message>
    </context>
    <context>
        <name>_AcceptanceBox</name>
        <message>
            <source>Delivery acceptance details (验收)</source>
            <translation>到货验收信息</translation>
        </message>
        <message>
            <source>Contract / P&amp;O no.:</source>
            <translation>合同 / 采购订单号(&amp;O)：</translation>
        </message>
        <message>
            <source>Quote no.:</source>
            <translation>报价编号：</translation>
        </message>
        <message>
            <source>Delivered on:</source>
            <translation>到货日期：</translation>
        </message>
        <message>
            <source>Concl&amp;usion:</source>
            <translation>验收结论(&amp;U)：</translation>
        </message>
        <message>
            <source>Reasons:</source>
            <translation>理由：</translation>
        </message>
        <message>
            <source>— not decided —</source>
            <translation>— 未定 —</translation>
        </message>
        <message>
            <source>Accepted (合格)</source>
            <translation>合格</translation>
        </message>
        <message>
            <source>Rejected (不合格)</source>
            <translation>不合格</translation>
        </message>
        <message>
            <source>Re-inspect after rework (整改后复验)</source>
            <translation>整改后复验</translation>
        </message>
        <message>
            <source>why accepted or rejected; what must be reworked</source>
            <translation>合格或不合格的理由；需要整改的内容</translation>
        </message>
        <message>
            <source>Export &amp;acceptance sheet (验收单)…</source>
            <translation>导出验收单(&amp;A)…</translation>
        </message>
        <message>
            <source>The delivery acceptance sheet: contract, quote, the delivered machines with serial numbers, each check with its evidence, the manual items, the conclusion and the signature blocks</source>
            <translation>到货验收单：合同、报价、到货设备及序列号、每项检查及依据、人工检查项、验收结论和签字栏</translation>
        </message>
        <message>
            <source>(assigned on the quote page)</source>
            <translation>（在报价页生成）</translation>
        </message>
        <message>
            <source>No verification report attached yet (step 5): the sheet will say the machines were not verified.</source>
            <translation>尚未附验证报告（第 5 步）：验收单将注明设备未经核验。</translation>
        </message>
        <message>
            <source>%1 of %2 attached reports were made against another plan, an older version of this one, or no plan: the sheet marks them and does not count them as evidence.</source>
            <translation>所附 %2 份报告中有 %1 份是对照其他方案、本方案的旧版本或未对照方案生成的：验收单会标明，且不作为验收依据。</translation>
        </message>
        <message>
            <source>Attached reports: %1, all made against this plan as it is now.</source>
            <translation>已附 %1 份报告，均对照本方案的当前版本生成。</translation>
        </message>
    </context>
    <context>
        <name>_SignOffBox</name>
        <message>
            <source>&amp;Name:</source>
            <translation>姓名(&amp;N)：</translation>
        </message>
        <message>
            <source>Role:</source>
            <translation>职务：</translation>
        </message>
        <message>
            <source>Date:</source>
            <translation>日期：</translation>
        </message>
        <message>
            <source>Sign</source>
            <translation>签核</translation>
        </message>
        <message>
            <source>reviewer</source>
            <translation>审核人</translation>
        </message>
        <message>
            <source>e.g. IT manager</source>
            <translation>例如：IT 经理</translation>
        </message>
        <message>
            <source>Also sign with my SSH &amp;key:</source>
            <translation>同时用我的 SSH 密钥签名(&amp;K)：</translation>
        </message>
        <message>
            <source>ssh-keygen -Y sign over exactly the content this sign-off covers: unlike the digest, it proves which key signed</source>
            <translation>用 ssh-keygen -Y sign 对本签署所涵盖的内容签名：与摘要不同，它能证明是哪把密钥签的</translation>
        </message>
        <message>
            <source>~/.ssh/id_ed25519</source>
            <translation>~/.ssh/id_ed25519</translation>
        </message>
        <message>
            <source>as in the allowed signers (default: your name)</source>
            <translation>允许签署人文件中的身份（默认：您的姓名）</translation>
        </message>
        <message>
            <source>The identity your key has in the organisation's allowed-signers file, e.g. zhang.wei@example.cn</source>
            <translation>您的密钥在单位允许签署人文件中的身份，例如 zhang.wei@example.cn</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>✘ %1 fail · ? %2 unknown</source>
            <translation>✘ %1 项不通过 · ? %2 项未知</translation>
        </message>
        <message>
            <source>✔ all items pass</source>
            <translation>✔ 全部通过</translation>
        </message>
        <message>
            <source>Sign again</source>
            <translation>重新签核</translation>
        </message>
        <message>
            <source>Choose the SSH key to sign with, or untick SSH signing.</source>
            <translation>请选择用于签名的 SSH 密钥，或取消勾选 SSH 签名。</translation>
        </message>
        <message>
            <source>Sign the checklist</source>
            <translation>签核检查清单</translation>
        </message>
    </context>
    <context>
        <name>app</name>
        <message>
            <source>The parts catalog cannot be loaded</source>
            <translation>无法加载配件目录</translation>
        </message>
        <message>
            <source>Fix these problems in the catalog files and start again:</source>
            <translation>请修正目录文件中的以下问题后重新启动：</translation>
        </message>
        <message>
            <source>The policy file cannot be loaded</source>
            <translation>无法加载策略文件</translation>
        </message>
    </context>
    <context>
        <name>dialogs</name>
        <message>
            <source>GPU purchase plans (*%s *.yaml *.yml);;All files (*)</source>
            <translation>GPU 采购方案 (*%s *.yaml *.yml);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Unsaved changes</source>
            <translation>未保存的修改</translation>
        </message>
        <message>
            <source>The plan “%s” has unsaved changes. Save them first?</source>
            <translation>方案“%s”有未保存的修改。是否先保存？</translation>
        </message>
        <message>
            <source>Open plan</source>
            <translation>打开方案</translation>
        </message>
        <message>
            <source>Load a model's config.json</source>
            <translation>加载模型的 config.json</translation>
        </message>
        <message>
            <source>Hugging Face config (*.json);;All files (*)</source>
            <translation>Hugging Face 配置文件 (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Save plan as</source>
            <translation>方案另存为</translation>
        </message>
        <message>
            <source>New from example</source>
            <translation>从示例新建</translation>
        </message>
        <message>
            <source>No example plans are installed.</source>
            <translation>未安装示例方案。</translation>
        </message>
        <message>
            <source>Example plan:</source>
            <translation>示例方案：</translation>
        </message>
        <message>
            <source>Recover unsaved changes</source>
            <translation>恢复未保存的修改</translation>
        </message>
        <message>
            <source>An autosaved copy of “%1” from %2 is newer than the saved file. It was probably left by a crash. Restore it?</source>
            <translation>有一份“%1”的自动保存副本（%2），比已保存的文件更新，可能是程序异常退出时留下的。是否恢复？</translation>
        </message>
        <message>
            <source>The file changed on disk</source>
            <translation>文件已在磁盘上被修改</translation>
        </message>
        <message>
            <source>“%1” was changed by another window or program since you opened it. Saving replaces those changes with yours (the previous file is kept as %1.bak). Save anyway?</source>
            <translation>“%1”在您打开之后已被其他窗口或程序修改。保存将用您的修改替换那些修改（之前的文件保留为 %1.bak）。仍要保存吗？</translation>
        </message>
        <message>
            <source>Replace parts you chose?</source>
            <translation>替换您选择的部件？</translation>
        </message>
        <message>
            <source>Auto-configure would replace parts you chose yourself:</source>
            <translation>自动配置将替换以下由您亲自选择的部件：</translation>
        </message>
        <message>
            <source>Replace them</source>
            <translation>替换</translation>
        </message>
        <message>
            <source>Keep mine</source>
            <translation>保留我的选择</translation>
        </message>
        <message>
            <source>%1 item(s) fail and %2 are unknown on this checklist. A signature says the plan was reviewed as it is. Sign anyway?</source>
            <translation>此检查清单有 %1 项不通过、%2 项未知。签署表示已按现状审核该方案。仍要签署吗？</translation>
        </message>
        <message>
            <source>Sign a checklist with open items</source>
            <translation>签署有未决项的检查清单</translation>
        </message>
        <message>
            <source>Waive %1</source>
            <translation>豁免 %1</translation>
        </message>
        <message>
            <source>Why it is accepted:</source>
            <translation>接受原因：</translation>
        </message>
        <message>
            <source>Accepted by:</source>
            <translation>豁免人：</translation>
        </message>
        <message>
            <source>Confirm “%1”</source>
            <translation>人工确认“%1”</translation>
        </message>
        <message>
            <source>The app cannot decide this item: %1

Confirm it only if you checked it yourself; it will show as confirmed by you, not as passed.</source>
            <translation>应用无法判定此项：%1

仅在您亲自核查后确认；它将显示为由您人工确认，而不是通过。</translation>
        </message>
        <message>
            <source>Confirmed by:</source>
            <translation>确认人：</translation>
        </message>
        <message>
            <source>How it was checked:</source>
            <translation>核查方式：</translation>
        </message>
        <message>
            <source>SSH key to sign with</source>
            <translation>用于签名的 SSH 密钥</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <source>Allowed signers file</source>
            <translation>允许签署人文件</translation>
        </message>
    </context>
    <context>
        <name>help</name>
        <message>
            <source>Next / previous control</source>
            <translation>下一个 / 上一个控件</translation>
        </message>
        <message>
            <source>Move within a table or list</source>
            <translation>在表格或列表中移动</translation>
        </message>
        <message>
            <source>Arrow keys, Home, End</source>
            <translation>方向键、Home、End</translation>
        </message>
        <message>
            <source>Select several rows (step 2, to compare)</source>
            <translation>选择多行（第 2 步，用于对比）</translation>
        </message>
        <message>
            <source>Shift+arrow keys</source>
            <translation>Shift+方向键</translation>
        </message>
        <message>
            <source>Use the GPU of the current row (step 2)</source>
            <translation>使用当前行的 GPU（第 2 步）</translation>
        </message>
        <message>
            <source>Enter</source>
            <translation>回车</translation>
        </message>
        <message>
            <source>Next / previous tab</source>
            <translation>下一个 / 上一个标签页</translation>
        </message>
        <message>
            <source>The field or button of an underlined letter</source>
            <translation>带下划线字母的字段或按钮</translation>
        </message>
        <message>
            <source>Alt+letter</source>
            <translation>Alt+字母</translation>
        </message>
        <message>
            <source>Open a drop-down list</source>
            <translation>打开下拉列表</translation>
        </message>
        <message>
            <source>Alt+Down or F4</source>
            <translation>Alt+下方向键 或 F4</translation>
        </message>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>键盘快捷键</translation>
        </message>
        <message>
            <source>Menus</source>
            <translation>菜单</translation>
        </message>
        <message>
            <source>Inside a page</source>
            <translation>页面内</translation>
        </message>
        <message>
            <source>Catalog and policy</source>
            <translation>目录与策略</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>目录</translation>
        </message>
        <message>
            <source>Parts: %1</source>
            <translation>部件数：%1</translation>
        </message>
        <message>
            <source>Parts with a reference price: %1</source>
            <translation>有参考价的部件：%1</translation>
        </message>
        <message>
            <source>Newest price date: %1</source>
            <translation>最新价格日期：%1</translation>
        </message>
        <message>
            <source>Oldest price date: %1</source>
            <translation>最早价格日期：%1</translation>
        </message>
        <message>
            <source>Price dates: none recorded</source>
            <translation>价格日期：均未记录</translation>
        </message>
        <message>
            <source>User catalog directories:</source>
            <translation>用户目录：</translation>
        </message>
        <message>
            <source>User catalog directories: none (the shipped catalog only)</source>
            <translation>用户目录：无（仅随附目录）</translation>
        </message>
        <message>
            <source>Policy in force</source>
            <translation>当前生效的策略</translation>
        </message>
        <message>
            <source>The file given with --policy: %1</source>
            <translation>通过 --policy 指定的文件：%1</translation>
        </message>
        <message>
            <source>The shipped policy (resources/policy/default.yaml); start the app with --policy FILE to use your own thresholds.</source>
            <translation>随附策略（resources/policy/default.yaml）；以 --policy 文件 启动程序可使用自己的阈值。</translation>
        </message>
        <message>
            <source>as shipped</source>
            <translation>与随附值相同</translation>
        </message>
        <message>
            <source>changed; shipped: %1</source>
            <translation>已修改；随附值：%1</translation>
        </message>
        <message>
            <source>User guide</source>
            <translation>使用指南</translation>
        </message>
    </context>
    <context>
        <name>workers</name>
        <message>
            <source>Saved %1</source>
            <translation>已保存 %1</translation>
        </message>
        <message>
            <source>No available font has these characters; the PDF shows their code points [U+…] instead: %1</source>
            <translation>没有可用字体能显示以下字符，PDF 中以代码点 [U+…] 代替：%1</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>PDF documents (*.pdf)</source>
            <translation>PDF 文档 (*.pdf)</translation>
        </message>
        <message>
            <source>Exporting…</source>
            <translation>正在导出…</translation>
        </message>
    </context>
</TS>
