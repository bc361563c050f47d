<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>ChecklistPage</name>
        <message>
            <source>Checklist</source>
            <translation>检查清单</translation>
        </message>
    </context>
    <context>
        <name>FindingsPanel</name>
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
            <source>FP16/BF16
TFLOPS</source>
            <translation>FP16/BF16
TFLOPS</translation>
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
            <source>Why</source>
            <translation>推荐理由</translation>
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
            <source>Or double-click a row</source>
            <translation>或双击一行</translation>
        </message>
        <message>
            <source>Compare</source>
            <translation>对比</translation>
        </message>
        <message>
            <source>Select two or three rows (Ctrl+click) to compare them side by side.</source>
            <translation>选择两到三行（Ctrl+单击）进行并排对比。</translation>
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
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
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
            <source>Choose GPU</source>
            <translation>选择 GPU</translation>
        </message>
    </context>
    <context>
        <name>ImagePage</name>
        <message>
            <source>Image selection</source>
            <translation>镜像选择</translation>
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
            <source>Export &amp;quote (PDF)…</source>
            <translation>导出报价单 PDF(&amp;Q)…</translation>
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
            <source>Clear recent files</source>
            <translation>清除最近文件</translation>
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
            <source>About gpu-procure</source>
            <translation>关于 gpu-procure</translation>
        </message>
        <message>
            <source>gpu-procure plans, checks, quotes and verifies GPU server purchases in five steps: requirements, GPU selection, server configuration, image selection and verification.</source>
            <translation>gpu-procure 分五步规划、检查、报价并验收 GPU 服务器采购：需求分析、GPU选型、服务器配置、镜像选择和验证测试。</translation>
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
    </context>
    <context>
        <name>QuotePage</name>
        <message>
            <source>Quote</source>
            <translation>报价单</translation>
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
            <source>GPU memory estimate</source>
            <translation>显存估算</translation>
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
            <source>&amp;Where it runs:</source>
            <translation>部署位置(&amp;W)：</translation>
        </message>
        <message>
            <source>&amp;Preset:</source>
            <translation>预设(&amp;P)：</translation>
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
            <source>&amp;Hidden size:</source>
            <translation>隐藏维度(&amp;H)：</translation>
        </message>
        <message>
            <source>&amp;KV heads:</source>
            <translation>KV 头数(&amp;K)：</translation>
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
            <source>B&amp;udget:</source>
            <translation>预算(&amp;U)：</translation>
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
            <source>1 = a single server; more = a multi-node cluster</source>
            <translation>1 = 单台服务器；大于 1 = 多节点集群</translation>
        </message>
        <message>
            <source>Key/value heads (grouped-query attention); used for the KV cache</source>
            <translation>键/值头数（分组查询注意力），用于估算 KV 缓存</translation>
        </message>
        <message>
            <source>Needs &amp;MIG (GPU partitioning)</source>
            <translation>需要 MIG（GPU 分区）(&amp;M)</translation>
        </message>
        <message>
            <source>Needs NV&amp;Link between GPUs</source>
            <translation>需要 GPU 间 NVLink(&amp;L)</translation>
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
            <source>Total</source>
            <translation>合计</translation>
        </message>
        <message>
            <source>chosen GPUs</source>
            <translation>已选 GPU</translation>
        </message>
        <message>
            <source>About &lt;b&gt;%1 GB&lt;/b&gt; of GPU memory in total.</source>
            <translation>总计约需 &lt;b&gt;%1 GB&lt;/b&gt; 显存。</translation>
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
            <source>Server configuration</source>
            <translation>服务器配置</translation>
        </message>
    </context>
    <context>
        <name>VerifyPage</name>
        <message>
            <source>Verification</source>
            <translation>验证测试</translation>
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
    </context>
</TS>
