<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>npuscope</name>
    <message>
        <source>The bundled sample profile was not found. Open a profiling folder (*_ascend_pt) or a trace_view.json to begin — or drop it on this window.</source>
        <translation>未找到随附的示例数据。请打开一个性能数据目录（*_ascend_pt）或 trace_view.json 开始——也可以直接拖放到本窗口。</translation>
    </message>
    <message>
        <source>The whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <source>Every rank&apos;s device lanes first, as the window shows them.</source>
        <translation>每个 Rank 的 Device 泳道在前，与窗口中的显示一致。</translation>
    </message>
    <message>
        <source>Bubble %1: %2</source>
        <translation>空泡 %1：%2</translation>
    </message>
    <message>
        <source>The gap, the task that ends it and its dispatch chain highlighted.</source>
        <translation>高亮显示该空闲间隙、结束它的任务及其下发链。</translation>
    </message>
    <message>
        <source>en</source>
        <comment>the HTML lang attribute of this translation</comment>
        <translation>zh-CN</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>npuscope::MainWindow</name>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开目录(&amp;F)…</translation>
    </message>
    <message>
        <source>Open a profiling folder (*_ascend_pt, a parent of rank folders, ASCEND_PROFILER_OUTPUT)</source>
        <translation>打开性能数据目录（*_ascend_pt、包含多个 Rank 目录的上级目录、ASCEND_PROFILER_OUTPUT）</translation>
    </message>
    <message>
        <source>Open F&amp;ile…</source>
        <translation>打开文件(&amp;I)…</translation>
    </message>
    <message>
        <source>Open a trace file (trace_view.json, *.json, *.json.gz)</source>
        <translation>打开 Trace 文件（trace_view.json、*.json、*.json.gz）</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Fit All</source>
        <translation>显示全部(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Zoom to Selection</source>
        <translation>缩放到选区(&amp;Z)</translation>
    </message>
    <message>
        <source>Zoom to the selected time range or slice</source>
        <translation>缩放到选中的时间范围或切片</translation>
    </message>
    <message>
        <source>Show Load &amp;Warnings…</source>
        <translation>查看加载警告(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About npuscope</source>
        <translation>关于 npuscope(&amp;A)</translation>
    </message>
    <message>
        <source>Mouse &amp;Wheel Zooms</source>
        <translation>鼠标滚轮缩放(&amp;W)</translation>
    </message>
    <message>
        <source>On: the mouse wheel zooms the timeline and Shift+wheel scrolls. Off: the wheel scrolls, Ctrl+wheel zooms and Shift+wheel pans (as Perfetto and chrome://tracing)</source>
        <translation>开启：鼠标滚轮缩放时间线，Shift+滚轮上下滚动。关闭：滚轮上下滚动，Ctrl+滚轮缩放，Shift+滚轮左右平移（与 Perfetto、chrome://tracing 一致）</translation>
    </message>
    <message>
        <source>&amp;Device Lanes First</source>
        <translation>Device 泳道置顶(&amp;D)</translation>
    </message>
    <message>
        <source>Show each rank&apos;s Ascend Hardware, Overlap Analysis and Communication lanes above the host lanes (Python, CANN), where the Top-Down method starts</source>
        <translation>把每个 Rank 的 Ascend Hardware、Overlap Analysis 和 Communication 泳道显示在 Host 泳道（Python、CANN）之上——Top-Down 分析从这里开始</translation>
    </message>
    <message>
        <source>Cancel Loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Slice &amp;Details Panel</source>
        <translation>切片详情面板(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Advice Panel</source>
        <translation>优化建议面板(&amp;A)</translation>
    </message>
    <message>
        <source>The advisor&apos;s findings: what to fix first, with the time at stake</source>
        <translation>专家建议的发现：先优化什么，以及可节省的时间</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Timeline viewer for Ascend NPU profiling data</source>
        <translation>昇腾 NPU 性能数据时间线查看器</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>打开目录…</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Slice Details</source>
        <translation>切片详情</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>优化建议</translation>
    </message>
    <message>
        <source>Resident memory of npuscope</source>
        <translation>npuscope 占用的常驻内存</translation>
    </message>
    <message>
        <source>Show the load warnings</source>
        <translation>查看加载警告</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>&amp;Find Slices…</source>
        <translation>查找切片(&amp;F)…</translation>
    </message>
    <message>
        <source>Find slices by name (Enter / Shift+Enter: next / previous match)</source>
        <translation>按名称查找切片（Enter / Shift+Enter：下一个 / 上一个匹配）</translation>
    </message>
    <message>
        <source>Follow Flow &amp;Forward</source>
        <translation>沿连线向后跳转(&amp;F)</translation>
    </message>
    <message>
        <source>Select the other end of the selected slice&apos;s first outgoing flow</source>
        <translation>选中当前切片第一条出向连线的另一端</translation>
    </message>
    <message>
        <source>Follow Flow &amp;Back</source>
        <translation>沿连线向前跳转(&amp;B)</translation>
    </message>
    <message>
        <source>Select the other end of the selected slice&apos;s first incoming flow</source>
        <translation>选中当前切片第一条入向连线的另一端</translation>
    </message>
    <message>
        <source>Flow &amp;Arrows</source>
        <translation>连线箭头(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Statistics Panel</source>
        <translation>统计面板(&amp;S)</translation>
    </message>
    <message>
        <source>Statistics Panel  (%1)</source>
        <translation>统计面板  (%1)</translation>
    </message>
    <message>
        <source>Find Slices  (%1)</source>
        <translation>查找切片  (%1)</translation>
    </message>
    <message>
        <source>Flow arrows drawn for the whole view, by category</source>
        <translation>按类别在整个视图中绘制的连线箭头</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  (%2)</translation>
    </message>
    <message>
        <source>(no category)</source>
        <translation>（无类别）</translation>
    </message>
    <message>
        <source>Draw every %1 flow in the visible range</source>
        <translation>绘制可见范围内所有 %1 连线</translation>
    </message>
    <message>
        <source>(no flows in this profile)</source>
        <translation>（该数据中没有连线）</translation>
    </message>
    <message>
        <source>(no profile loaded)</source>
        <translation>（未加载数据）</translation>
    </message>
    <message>
        <source>Hide All</source>
        <translation>全部隐藏</translation>
    </message>
    <message>
        <source>The selected slice&apos;s own flows are always drawn</source>
        <translation>选中切片自身的连线总是会绘制</translation>
    </message>
    <message>
        <source>Select a slice first</source>
        <translation>请先选中一个切片</translation>
    </message>
    <message>
        <source>The selected slice has no outgoing flow</source>
        <translation>选中的切片没有出向连线</translation>
    </message>
    <message>
        <source>The selected slice has no incoming flow</source>
        <translation>选中的切片没有入向连线</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear Recent</source>
        <translation>清除最近记录</translation>
    </message>
    <message>
        <source>Open Profiling Folder</source>
        <translation>打开性能数据目录</translation>
    </message>
    <message>
        <source>Trace files (trace_view.json *.json *.json.gz)</source>
        <translation>Trace 文件 (trace_view.json *.json *.json.gz)</translation>
    </message>
    <message>
        <source>Ascend trace view (trace_view.json)</source>
        <translation>昇腾 Trace 视图 (trace_view.json)</translation>
    </message>
    <message>
        <source>Gzipped trace (*.json.gz)</source>
        <translation>gzip 压缩的 Trace (*.json.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Trace File</source>
        <translation>打开 Trace 文件</translation>
    </message>
    <message>
        <source>Open a torch_npu / MindSpore profiling folder (*_ascend_pt), a folder of ranks, or a trace_view.json — or drop it on this window.</source>
        <translation>打开 torch_npu / MindSpore 性能数据目录（*_ascend_pt）、包含多个 Rank 的目录或 trace_view.json——也可以直接拖放到本窗口。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>正在加载 %1</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>正在打开…</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>building the timeline (%1 read)</source>
        <translation>正在构建时间线（已读取 %1）</translation>
    </message>
    <message>
        <source>analysing</source>
        <translation>正在分析</translation>
    </message>
    <message>
        <source>rank %1 of %2</source>
        <translation>Rank %1 / %2</translation>
    </message>
    <message>
        <source>~%1 min %2 s left</source>
        <translation>剩余约 %1 分 %2 秒</translation>
    </message>
    <message>
        <source>~%1 s left</source>
        <translation>剩余约 %1 秒</translation>
    </message>
    <message>
        <source>almost done</source>
        <translation>即将完成</translation>
    </message>
    <message>
        <source>estimating the time left…</source>
        <translation>正在估算剩余时间…</translation>
    </message>
    <message>
        <source>%1 — npuscope</source>
        <translation>%1 — npuscope</translation>
    </message>
    <message>
        <source>Could not load %1</source>
        <translation>无法加载 %1</translation>
    </message>
    <message>
        <source>Could not load %1.</source>
        <translation>无法加载 %1。</translation>
    </message>
    <message>
        <source>Cannot Open Profile</source>
        <translation>无法打开性能数据</translation>
    </message>
    <message>
        <source>npuscope could not load
%1</source>
        <translation>npuscope 无法加载
%1</translation>
    </message>
    <message>
        <source>Loading of %1 cancelled</source>
        <translation>已取消加载 %1</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 个 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 个 Rank</translation>
    </message>
    <message>
        <source> (%1 failed)</source>
        <translation>（%1 个失败）</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 个事件</translation>
    </message>
    <message>
        <source>%1 slices</source>
        <translation>%1 个切片</translation>
    </message>
    <message>
        <source>loaded in %1 s</source>
        <translation>加载用时 %1 秒</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 条警告</translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation>%1 条警告</translation>
    </message>
    <message>
        <source>Mem %1</source>
        <translation>内存 %1</translation>
    </message>
    <message>
        <source>Select a slice or Shift+drag a time range first</source>
        <translation>请先选中一个切片，或按住 Shift 拖动选择时间范围</translation>
    </message>
    <message>
        <source>About npuscope</source>
        <translation>关于 npuscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;npuscope %1&lt;/h3&gt;&lt;p&gt;A native, fast timeline viewer for Huawei Ascend NPU profiling data (torch_npu / MindSpore *_ascend_pt folders, trace_view.json, Kineto traces).&lt;/p&gt;&lt;p&gt;Built with Qt %2. Licensed under the MIT licence.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;npuscope %1&lt;/h3&gt;&lt;p&gt;原生、快速的华为昇腾 NPU 性能数据时间线查看器（torch_npu / MindSpore 的 *_ascend_pt 目录、trace_view.json、Kineto Trace）。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建，以 MIT 许可证发布。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Nothing to export: no profile is loaded.</source>
        <translation>没有可导出的内容：尚未加载性能数据。</translation>
    </message>
    <message>
        <source>Top-Down</source>
        <translation>Top-Down</translation>
    </message>
    <message>
        <source>Dispatch Chain</source>
        <translation>下发链路</translation>
    </message>
    <message>
        <source>&amp;Top-Down Panel</source>
        <translation>Top-Down 面板(&amp;T)</translation>
    </message>
    <message>
        <source>Overlap shares, verdict and the ranked device bubbles</source>
        <translation>Overlap 占比、结论以及按时长排序的 Device 空泡</translation>
    </message>
    <message>
        <source>Dispatch &amp;Chain Panel</source>
        <translation>下发链路面板(&amp;C)</translation>
    </message>
    <message>
        <source>The dispatch chain (Python API → device task) of the selected device task or bubble</source>
        <translation>选中的 Device 任务或空泡的下发链路（Python API → Device 任务）</translation>
    </message>
    <message>
        <source>launched after the device went idle: the device waited for the host</source>
        <translation>在 Device 空闲之后才下发：Device 在等待 Host</translation>
    </message>
    <message>
        <source>launched before the device went idle: it was queued, the device held it</source>
        <translation>在 Device 空闲之前已下发：任务在排队，由 Device 侧延后执行</translation>
    </message>
    <message>
        <source>launch time not recorded</source>
        <translation>未记录下发时间</translation>
    </message>
    <message>
        <source>Ends bubble #%1: %2 idle, %3; %4</source>
        <translation>结束空泡 #%1：空闲 %2，%3；%4</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source> (%1 tables only)</source>
        <translation>（%1 个仅有表格）</translation>
    </message>
    <message>
        <source>&amp;Export Image…</source>
        <translation>导出图像(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the timeline as a PNG or SVG image, or copy it to the clipboard</source>
        <translation>将时间线保存为 PNG 或 SVG 图像，或复制到剪贴板</translation>
    </message>
    <message>
        <source>Markers</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>capture %1 of %2: %3</source>
        <translation>采集 %1/%2：%3</translation>
    </message>
    <message numerus="yes">
        <source>%1. %2: %n rank(s)</source>
        <translation>
            <numerusform>%1. %2：%n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source> (loaded)</source>
        <translation>（已加载）</translation>
    </message>
    <message>
        <source>This folder holds several profiling runs; only one is loaded. Open another run&apos;s folder to see it.</source>
        <translation>此文件夹包含多次性能采集，只加载了其中一次。要查看其他采集，请打开其所在文件夹。</translation>
    </message>
    <message>
        <source>Export Image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>Image copied to the clipboard</source>
        <translation>图像已复制到剪贴板</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>%1 is inside the profiling folder, which npuscope never writes into: choose another folder.</source>
        <translation>%1 位于性能数据文件夹内，npuscope 从不写入该文件夹：请选择其他文件夹。</translation>
    </message>
    <message>
        <source>No load warnings (show the notes)</source>
        <translation>没有加载警告（查看说明）</translation>
    </message>
    <message>
        <source>Step %1: its E2E span selected (%2)</source>
        <translation>Step %1：已选中其 E2E 跨度（%2）</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>C&amp;luster Panel</source>
        <translation>集群面板(&amp;L)</translation>
    </message>
    <message>
        <source>The ranks compared: late ranks, skew per collective, waits, clock offsets and links</source>
        <translation>各 Rank 对比：晚到的 Rank、每个集合通信的偏差、等待、时钟偏移与链路</translation>
    </message>
    <message numerus="yes">
        <source>Collective outlined on %n rank(s)</source>
        <translation>
            <numerusform>已在 %n 个 Rank 上标出该集合通信</numerusform>
        </translation>
    </message>
    <message>
        <source>Dispatch</source>
        <translation>下发</translation>
    </message>
    <message>
        <source>&amp;Dispatch Statistics</source>
        <translation>下发统计(&amp;D)</translation>
    </message>
    <message>
        <source>Per torch op and CANN API: host time, queue wait, launch latency, device time and the bubbles each ends</source>
        <translation>按 torch 算子与 CANN API：Host 耗时、队列等待、下发时延、Device 耗时，以及各自结束的空泡</translation>
    </message>
    <message>
        <source>Could not load %1 to compare: %2</source>
        <translation>无法加载 %1 进行对比：%2</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Co&amp;mpare Panel</source>
        <translation>对比面板(&amp;M)</translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation>与…对比(&amp;W)</translation>
    </message>
    <message>
        <source>Open a second capture under this one, aligned, with the differences listed</source>
        <translation>在当前采集下方打开第二个采集并对齐，列出差异</translation>
    </message>
    <message>
        <source>Capture to compare with</source>
        <translation>要对比的采集</translation>
    </message>
    <message>
        <source>Close Comparison</source>
        <translation>关闭对比</translation>
    </message>
    <message>
        <source>Loading %1 to compare…</source>
        <translation>正在加载 %1 用于对比…</translation>
    </message>
    <message>
        <source>Comparing with %1 (below)</source>
        <translation>正在与 %1（下方）对比</translation>
    </message>
    <message>
        <source>Select a slice on each timeline to align them on it</source>
        <translation>请在两个时间线上各选中一个切片，以此对齐</translation>
    </message>
    <message>
        <source>Show &amp;All Lanes</source>
        <translation>显示全部泳道(&amp;A)</translation>
    </message>
    <message>
        <source>Show every lane again after a collective showed only its ranks&apos; HCCL lanes</source>
        <translation>在集合通信只显示各 Rank 的 HCCL 泳道之后，重新显示全部泳道</translation>
    </message>
    <message numerus="yes">
        <source>Collective on %n rank(s): only the lanes holding it are shown (View &gt; Show All Lanes, Ctrl+Shift+A)</source>
        <translation>
            <numerusform>集合通信位于 %n 个 Rank：只显示包含它的泳道（视图 &gt; 显示全部泳道，Ctrl+Shift+A）</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 is loaded in full: its lanes are on the timeline</source>
        <translation>Rank %1 已完整加载：其泳道就在时间线上</translation>
    </message>
    <message>
        <source>Opening rank %1 in a new window: %2</source>
        <translation>正在新窗口中打开 Rank %1：%2</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Rank %1&apos;s trace is not reachable from this machine. It was summarized on %2 from
%3
Copy that folder here (or open it on that machine) to see the rank in full.</source>
        <translation>本机无法访问 Rank %1 的 Trace。它的摘要生成于 %2，源目录为
%3
请把该目录复制到本机（或在那台机器上打开）以查看该 Rank 的完整数据。</translation>
    </message>
    <message>
        <source>an unknown machine</source>
        <translation>未知机器</translation>
    </message>
    <message>
        <source>(no path recorded)</source>
        <translation>（未记录路径）</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>%1 launched 64 or more device tasks; the chain of the first</source>
        <translation>%1 下发了 64 个及以上 Device 任务；这里是第一个任务的下发链路</translation>
    </message>
    <message numerus="yes">
        <source>%1 launched %n device task(s); the chain of the first</source>
        <translation>
            <numerusform>%1 下发了 %n 个 Device 任务；这里是第一个任务的下发链路</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Device and HCCL Lanes Only</source>
        <translation>仅显示 Device 与 HCCL 泳道(&amp;D)</translation>
    </message>
    <message>
        <source>Show each rank&apos;s device lanes (Ascend Hardware, Overlap Analysis) and HCCL lanes only, so that the same lanes of every rank lie together</source>
        <translation>每个 Rank 只显示其 Device 泳道（Ascend Hardware、Overlap Analysis）与 HCCL 泳道，使各 Rank 的同类泳道靠在一起</translation>
    </message>
    <message>
        <source>Show &amp;Ranks…</source>
        <translation>显示指定 Rank(&amp;R)…</translation>
    </message>
    <message>
        <source>Show only some ranks, e.g. 0-7, 12 (empty: every rank)</source>
        <translation>只显示部分 Rank，例如 0-7, 12（留空：全部 Rank）</translation>
    </message>
    <message>
        <source>Show Ranks</source>
        <translation>显示指定 Rank</translation>
    </message>
    <message>
        <source>Rank ids to show (e.g. 0-7, 12; empty: every rank):</source>
        <translation>要显示的 Rank 编号（例如 0-7, 12；留空：全部 Rank）：</translation>
    </message>
    <message>
        <source>“%1” names no loaded rank: every rank stays shown</source>
        <translation>“%1”不包含任何已加载的 Rank：仍显示全部 Rank</translation>
    </message>
</context>
<context>
    <name>npuscope::TraceLoader</name>
    <message>
        <source>No path given.</source>
        <translation>未指定路径。</translation>
    </message>
    <message>
        <source>No such file or folder: %1</source>
        <translation>文件或目录不存在：%1</translation>
    </message>
    <message>
        <source>Permission denied: %1 cannot be read.</source>
        <translation>权限不足：无法读取 %1。</translation>
    </message>
    <message>
        <source>Nothing could be loaded from this path.</source>
        <translation>无法从该路径加载任何数据。</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Advisor</name>
    <message>
        <source>MatMul/Conv TFLOPS: unknown</source>
        <translation>MatMul/Conv TFLOPS：未知</translation>
    </message>
    <message>
        <source>%1 MatMul/Conv kernels, none with recorded shapes that fit the op (record_shapes and Level1 write Input/Output Shapes in kernel_details.csv)</source>
        <translation>%1 个 MatMul/Conv kernel，没有一个记录了与算子匹配的 shape（record_shapes 且 Level1 时才会在 kernel_details.csv 中写入 Input/Output Shapes）</translation>
    </message>
    <message>
        <source>MatMul/Conv TFLOPS (no peak: utilisation unknown)</source>
        <translation>MatMul/Conv TFLOPS（没有峰值：利用率未知）</translation>
    </message>
    <message>
        <source>; the chip is not recorded in this capture: no utilisation verdict (give the chip, e.g. --chip Ascend910B3)</source>
        <translation>；本次采集未记录芯片型号：无法判断利用率（请指定芯片，例如 --chip Ascend910B3）</translation>
    </message>
    <message>
        <source>; no peak for %1 and %2 in the table</source>
        <translation>；表中没有 %1 在 %2 下的峰值</translation>
    </message>
    <message>
        <source>MatMul/Conv below %1% of peak</source>
        <translation>MatMul/Conv 低于峰值的 %1%</translation>
    </message>
    <message>
        <source>; %1 below the mark, worst %2</source>
        <translation>；%1 个低于界线，最差 %2</translation>
    </message>
    <message>
        <source>Raise the batch size (small M/N/K leave cube units idle) or train in mixed precision (AMP, FP16/BF16), whose peak is about four times FP32&apos;s.</source>
        <translation>增大 batch size（M/N/K 太小会让 Cube 单元空闲），或使用混合精度训练（AMP，FP16/BF16），其峰值约为 FP32 的四倍。</translation>
    </message>
    <message>
        <source>MatMul/Conv efficient (&gt;= %1% of peak)</source>
        <translation>MatMul/Conv 高效（&gt;= 峰值的 %1%）</translation>
    </message>
    <message>
        <source>MatMul/Conv between the marks</source>
        <translation>MatMul/Conv 介于两条界线之间</translation>
    </message>
    <message>
        <source>an AI_CPU task of %1 or more</source>
        <translation>AI_CPU 任务时长达到 %1 及以上</translation>
    </message>
    <message>
        <source>AI_CPU tasks short</source>
        <translation>AI_CPU 任务都较短</translation>
    </message>
    <message>
        <source>%1 AI_CPU tasks, the longest %2</source>
        <translation>%1 个 AI_CPU 任务，最长 %2</translation>
    </message>
    <message>
        <source>Operators fall back to the AI CPU</source>
        <translation>算子回退到 AI CPU 执行</translation>
    </message>
    <message>
        <source>%1 of %2 AI_CPU tasks at or above the mark, %3 in all; the longest %4</source>
        <translation>%2 个 AI_CPU 任务中有 %1 个达到界线，共 %3；最长 %4</translation>
    </message>
    <message>
        <source>These operators run on the AI CPU: change the input dtype or shape to one the AI Core supports (e.g. cast int64 to int32, avoid double), or replace the operator.</source>
        <translation>这些算子在 AI CPU 上运行：把输入的 dtype 或 shape 改成 AI Core 支持的（例如把 int64 转为 int32，避免 double），或替换该算子。</translation>
    </message>
    <message>
        <source>AI Core pipelines: unknown</source>
        <translation>AI Core 流水线：未知</translation>
    </message>
    <message>
        <source>kernel_details.csv has no pipe ratios (Level1 with aic_metrics PipeUtilization writes them)</source>
        <translation>kernel_details.csv 中没有流水线占比（Level1 且 aic_metrics 为 PipeUtilization 时才会写入）</translation>
    </message>
    <message>
        <source>Heavy operators are memory-bound</source>
        <translation>重点算子受访存限制</translation>
    </message>
    <message>
        <source>Memory-bound operators wait on data movement (MTE): fuse them with their neighbours, avoid format conversions (TransData), and give matmuls shapes that reuse data (larger M/N).</source>
        <translation>访存受限的算子在等待数据搬运（MTE）：把它们与相邻算子融合，避免格式转换（TransData），并让矩阵乘使用能复用数据的 shape（更大的 M/N）。</translation>
    </message>
    <message>
        <source>Heavy operators: pipelines</source>
        <translation>重点算子：流水线</translation>
    </message>
    <message>
        <source>block dim not a multiple of the core count, kernels of %1 or more</source>
        <translation>block dim 不是核数的整数倍，且 kernel 时长达到 %1 及以上</translation>
    </message>
    <message>
        <source>Block dim: core count unknown</source>
        <translation>Block dim：核数未知</translation>
    </message>
    <message>
        <source>the chip is not recorded in this capture (give it, e.g. --chip Ascend910B3)</source>
        <translation>本次采集未记录芯片型号（请指定，例如 --chip Ascend910B3）</translation>
    </message>
    <message>
        <source>no core count for %1 in the table (a family name such as Ascend910B does not tell the variant&apos;s core count: give the chip, e.g. --chip Ascend910B3)</source>
        <translation>表中没有 %1 的核数（Ascend910B 这样的系列名无法确定具体型号的核数：请指定芯片，例如 --chip Ascend910B3）</translation>
    </message>
    <message>
        <source>%1 of %2 kernels (AI Core %3, AI Vector %4 cores on %5)</source>
        <translation>%2 个 kernel 中的 %1 个（%5 上有 AI Core %3 个、AI Vector %4 个）</translation>
    </message>
    <message>
        <source>Block dim fits the cores</source>
        <translation>Block dim 与核数匹配</translation>
    </message>
    <message>
        <source>Block dim leaves cores idle</source>
        <translation>Block dim 让部分核空闲</translation>
    </message>
    <message>
        <source>The operators&apos; tiling leaves part of the cores idle in the last wave: try shapes that divide evenly across the cores, or an operator version that tiles for this chip.</source>
        <translation>这些算子的切分让最后一轮有部分核空闲：尝试能被核数整除的 shape，或使用针对该芯片切分的算子版本。</translation>
    </message>
    <message>
        <source>Device memory: unknown</source>
        <translation>Device 内存：未知</translation>
    </message>
    <message>
        <source>no memory_record.csv (written with profile_memory=True)</source>
        <translation>没有 memory_record.csv（profile_memory=True 时才会写入）</translation>
    </message>
    <message>
        <source>; the whole process (APP) reserved up to %1</source>
        <translation>；整个进程（APP）最多预留 %1</translation>
    </message>
    <message>
        <source>; no operator_memory.csv: the allocators are unknown</source>
        <translation>；没有 operator_memory.csv：分配者未知</translation>
    </message>
    <message>
        <source>; largest live at the peak:</source>
        <translation>；峰值时存活的最大分配：</translation>
    </message>
    <message>
        <source>Device memory near capacity</source>
        <translation>Device 内存接近容量上限</translation>
    </message>
    <message>
        <source>The peak leaves little room: free or shrink the largest allocations live at the peak (activation recomputation, a smaller micro-batch, ZeRO / optimizer sharding), and set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation.</source>
        <translation>峰值留下的余量很小：释放或缩小峰值时存活的最大分配（激活重计算、更小的 micro-batch、ZeRO / 优化器切分），并设置 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True 以减少碎片。</translation>
    </message>
    <message>
        <source>Device memory: peak vs held throughout</source>
        <translation>Device 内存：峰值与全程占用</translation>
    </message>
    <message>
        <source>SDMA task size &gt; %1 B and not a multiple of %1 B</source>
        <translation>SDMA 任务大小 &gt; %1 B 且不是 %1 B 的整数倍</translation>
    </message>
    <message>
        <source>Communication byte alignment: unknown</source>
        <translation>通信字节对齐：未知</translation>
    </message>
    <message>
        <source>%1 communication ops, but no HCCL task records its size (Level1 writes the tasks&apos; size(Byte))</source>
        <translation>%1 个通信算子，但没有 HCCL 任务记录其大小（Level1 才会写入任务的 size(Byte)）</translation>
    </message>
    <message>
        <source>%1 communication ops, but no HCCL task records its transport type (SDMA / RDMA), which the rule needs</source>
        <translation>%1 个通信算子，但没有 HCCL 任务记录其传输类型（SDMA / RDMA），而此规则需要它</translation>
    </message>
    <message>
        <source>%1 of %2 SDMA tasks off chip above %3 B not aligned (%4 of %5), in %6 of %7 communication ops</source>
        <translation>%2 个大于 %3 B 的片外 SDMA 任务中有 %1 个未对齐（%5 中的 %4），分布在 %7 个通信算子中的 %6 个</translation>
    </message>
    <message>
        <source>Communication sizes aligned</source>
        <translation>通信大小已对齐</translation>
    </message>
    <message>
        <source>Communication sizes not 512 B aligned</source>
        <translation>通信大小未按 512 B 对齐</translation>
    </message>
    <message>
        <source>Transfers whose size is not a multiple of 512 B move slower over SDMA: pad the communicated tensors (e.g. bucket sizes, hidden sizes) to a multiple of 512 bytes.</source>
        <translation>大小不是 512 B 整数倍的传输在 SDMA 上更慢：把通信的张量（例如 bucket 大小、hidden size）补齐到 512 字节的整数倍。</translation>
    </message>
    <message>
        <source>Communication bandwidth: unknown</source>
        <translation>通信带宽：未知</translation>
    </message>
    <message>
        <source>SDMA bandwidth low while MatMul runs</source>
        <translation>MatMul 运行期间 SDMA 带宽偏低</translation>
    </message>
    <message>
        <source>Communication that overlaps compute competes with it for memory bandwidth: compare with the overlap (or the fusion of communication and compute) switched off, and keep it only if it still wins.</source>
        <translation>与计算相互掩盖的通信会和计算争抢内存带宽：与关闭掩盖（或关闭通算融合）时对比，只有仍然更快时才保留。</translation>
    </message>
    <message>
        <source>Communication bandwidth below the nominal</source>
        <translation>通信带宽低于标称值</translation>
    </message>
    <message>
        <source>Communication bandwidth fine</source>
        <translation>通信带宽正常</translation>
    </message>
    <message>
        <source>share of ops moving &lt; %1 over SDMA (or &lt; %2 over RDMA) above %3</source>
        <translation>经 SDMA 传输 &lt; %1（或经 RDMA &lt; %2）的通信算子占比超过 %3</translation>
    </message>
    <message>
        <source>Communication packets: unknown</source>
        <translation>通信包大小：未知</translation>
    </message>
    <message>
        <source>Many small communication packets</source>
        <translation>大量小通信包</translation>
    </message>
    <message>
        <source>Many small transfers pay the launch and latency cost each time: in data parallelism raise the batch or accumulate gradients over more steps, use larger gradient buckets, prefer ZeRO-1/2 to ZeRO-3 when memory allows, and use fused optimizers that communicate fewer, larger tensors.</source>
        <translation>大量小传输每次都要付出下发和时延开销：数据并行时增大 batch 或在更多 Step 上累积梯度，使用更大的梯度 bucket，内存允许时优先用 ZeRO-1/2 而不是 ZeRO-3，并使用融合优化器以更少、更大的张量通信。</translation>
    </message>
    <message>
        <source>Communication packets large enough</source>
        <translation>通信包足够大</translation>
    </message>
    <message>
        <source>AI Core frequency at or below %1 of the highest recorded, inside the steps&apos; device windows</source>
        <translation>在各 Step 的 Device 时间窗内，AI Core 频率等于或低于记录到的最高值的 %1</translation>
    </message>
    <message>
        <source>AI Core frequency: unknown</source>
        <translation>AI Core 频率：未知</translation>
    </message>
    <message>
        <source>no AI Core Freq counter in this capture</source>
        <translation>本次采集没有 AI Core Freq 计数器</translation>
    </message>
    <message>
        <source>%1 (%2 samples)</source>
        <translation>%1（%2 个采样）</translation>
    </message>
    <message>
        <source>AI Core frequency drops</source>
        <translation>AI Core 频率下降</translation>
    </message>
    <message>
        <source>; %1 compute kernels (%2) started during the drops</source>
        <translation>；降频期间开始了 %1 个计算 kernel（%2）</translation>
    </message>
    <message>
        <source>The AI Core clock fell during the step (power or thermal capping, or a power-saving mode): check the device&apos;s power mode, temperature and power limit (npu-smi info), and the cooling of the server.</source>
        <translation>Step 期间 AI Core 时钟下降（功耗或温度限制，或省电模式）：检查设备的功耗模式、温度和功耗上限（npu-smi info），以及服务器的散热。</translation>
    </message>
    <message>
        <source>AI Core frequency steady</source>
        <translation>AI Core 频率稳定</translation>
    </message>
    <message>
        <source>an op type with %1 or more new input shapes per step after the first</source>
        <translation>某类算子在第一个 Step 之后每个 Step 出现 %1 个及以上新的输入 shape</translation>
    </message>
    <message>
        <source>Dynamic shapes: unknown</source>
        <translation>动态 shape：未知</translation>
    </message>
    <message>
        <source>kernel_details.csv records no Input Shapes (Level1 writes them)</source>
        <translation>kernel_details.csv 没有记录 Input Shapes（Level1 才会写入）</translation>
    </message>
    <message>
        <source>%1 of %2 op types bring new input shapes after step %3 (%4 steps)</source>
        <translation>%2 类算子中有 %1 类在 Step %3 之后出现新的输入 shape（共 %4 个 Step）</translation>
    </message>
    <message>
        <source>Input shapes change between steps</source>
        <translation>输入 shape 在 Step 之间变化</translation>
    </message>
    <message>
        <source>Shapes that change every step make CANN compile or look up kernels again (aclopCompileAndExecute, ACLNN cache misses): pad inputs to a few fixed sizes (bucketing), keep the batch and sequence lengths fixed, and raise ACLNN_CACHE_LIMIT if the shapes must vary.</source>
        <translation>每个 Step 都变化的 shape 会让 CANN 重新编译或重新查找 kernel（aclopCompileAndExecute、ACLNN 缓存未命中）：把输入补齐到少数几个固定大小（分桶），固定 batch 和序列长度；如果 shape 必须变化，调大 ACLNN_CACHE_LIMIT。</translation>
    </message>
    <message>
        <source>Input shapes repeat between steps</source>
        <translation>输入 shape 在 Step 之间保持一致</translation>
    </message>
    <message>
        <source>the capture is partial (%1), so the layer may have been cut off (not necessarily a Level0 capture)</source>
        <translation>采集不完整（%1），该层可能被截掉了（不一定是 Level0 采集）</translation>
    </message>
    <message>
        <source>%1 or more aclopCompileAndExecute calls per step</source>
        <translation>每 Step %1 次及以上 aclopCompileAndExecute 调用</translation>
    </message>
    <message>
        <source>ACLOP compilation: unknown</source>
        <translation>ACLOP 编译：未知</translation>
    </message>
    <message>
        <source>the CANN layer was not recorded: %1</source>
        <translation>未记录 CANN 层：%1</translation>
    </message>
    <message>
        <source>Level0 prunes it</source>
        <translation>Level0 会裁掉它</translation>
    </message>
    <message>
        <source>Operators compiled online (ACLOP)</source>
        <translation>算子在线编译（ACLOP）</translation>
    </message>
    <message>
        <source>Call torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format=False so that prebuilt ACLNN binaries are used.</source>
        <translation>调用 torch_npu.npu.set_compile_mode(jit_compile=False) 并设置 torch_npu.npu.config.allow_internal_format=False，以使用预编译的 ACLNN 二进制。</translation>
    </message>
    <message>
        <source>ACLOP calls below the count mark, but they leave the device idle</source>
        <translation>ACLOP 调用次数低于界线，但它们让 Device 空闲</translation>
    </message>
    <message>
        <source>device gap</source>
        <translation>个 Device 间隙</translation>
    </message>
    <message>
        <source>device gaps</source>
        <translation>个 Device 间隙</translation>
    </message>
    <message>
        <source>Those operators still take the ACLOP path: set torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format=False, or find their ACLNN / fused replacements.</source>
        <translation>这些算子仍走 ACLOP 路径：设置 torch_npu.npu.set_compile_mode(jit_compile=False) 和 torch_npu.npu.config.allow_internal_format=False，或寻找它们的 ACLNN / 融合替代。</translation>
    </message>
    <message>
        <source>ACLOP calls below the mark</source>
        <translation>ACLOP 调用低于界线</translation>
    </message>
    <message>
        <source>%1 or more element-wise/normalisation ops per step whose host launch API outlasts the task</source>
        <translation>每 Step %1 个及以上 Host 下发 API 耗时长于任务本身的逐元素/归一化算子</translation>
    </message>
    <message>
        <source>Short element-wise ops: unknown</source>
        <translation>短小的逐元素算子：未知</translation>
    </message>
    <message>
        <source>%1 element-wise/normalisation tasks; their launching CANN API was not recorded</source>
        <translation>%1 个逐元素/归一化任务；未记录下发它们的 CANN API</translation>
    </message>
    <message>
        <source>Many short element-wise ops: launch-bound</source>
        <translation>大量短小的逐元素算子：受下发限制</translation>
    </message>
    <message>
        <source>Fuse these small operators: use the fused APIs (torch_npu.npu_* fused ops, fused optimizers) or graph mode (torch.compile with torchair) so that one launch does the work of many.</source>
        <translation>融合这些小算子：使用融合 API（torch_npu.npu_* 融合算子、融合优化器）或图模式（torch.compile 搭配 torchair），让一次下发完成多次下发的工作。</translation>
    </message>
    <message>
        <source>Short element-wise ops below the mark</source>
        <translation>短小的逐元素算子低于界线</translation>
    </message>
    <message>
        <source>%1 or more host&lt;-&gt;device transfers per step (aten::item, _local_scalar_dense, acl_memcpy_*, blocking aclrtMemcpy) inside ProfilerStep</source>
        <translation>ProfilerStep 内每 Step %1 次及以上 Host&lt;-&gt;Device 传输（aten::item、_local_scalar_dense、acl_memcpy_*、阻塞的 aclrtMemcpy）</translation>
    </message>
    <message>
        <source>%1 or more host&lt;-&gt;device transfers per step (aten::item, _local_scalar_dense, cudaMemcpy* / hipMemcpy* runtime calls, else Memcpy HtoD / DtoH device copies) inside ProfilerStep</source>
        <translation>ProfilerStep 内每 Step %1 次及以上 Host&lt;-&gt;Device 传输（aten::item、_local_scalar_dense、cudaMemcpy* / hipMemcpy* Runtime 调用，否则取 Memcpy HtoD / DtoH 设备拷贝）</translation>
    </message>
    <message>
        <source>Data transfers: unknown</source>
        <translation>数据传输：未知</translation>
    </message>
    <message>
        <source>neither the CUDA / HIP runtime calls (cuda_runtime) nor a host&lt;-&gt;device copy (gpu_memcpy) was recorded, so copies cannot be counted</source>
        <translation>既没有记录 CUDA / HIP Runtime 调用（cuda_runtime），也没有记录 Host&lt;-&gt;Device 拷贝（gpu_memcpy），因此无法统计拷贝</translation>
    </message>
    <message>
        <source>the host layers (Python, CANN) were not recorded</source>
        <translation>未记录 Host 层（Python、CANN）</translation>
    </message>
    <message>
        <source>; called from </source>
        <translation>；调用自 </translation>
    </message>
    <message>
        <source>; call sites not recorded (with_stack off)</source>
        <translation>；未记录调用位置（with_stack 关闭）</translation>
    </message>
    <message>
        <source>; the device is idle %1 of that time</source>
        <translation>；其间 Device 空闲 %1</translation>
    </message>
    <message>
        <source>; on the device %1 (Memcpy HtoD / DtoH), %2</source>
        <translation>；Device 上有 %1（Memcpy HtoD / DtoH），%2</translation>
    </message>
    <message>
        <source>host&lt;-&gt;device copy</source>
        <translation>次 Host&lt;-&gt;Device 拷贝</translation>
    </message>
    <message>
        <source>host&lt;-&gt;device copies</source>
        <translation>次 Host&lt;-&gt;Device 拷贝</translation>
    </message>
    <message>
        <source>no steps recorded (no ProfilerStep#N or Iteration window), so transfers inside the step cannot be told; in the whole capture: %1</source>
        <translation>未记录 Step（没有 ProfilerStep#N 或 Iteration 时间窗），因此无法判断 Step 内的传输；整个采集中：%1</translation>
    </message>
    <message>
        <source>the framework layer (torch ops: aten::item, .cpu()) was not recorded (MindSpore / GE graph mode through msprof?), only blocking CANN copies can be counted; %1</source>
        <translation>未记录框架层（torch 算子：aten::item、.cpu()）（经 msprof 采集的 MindSpore / GE 图模式？），只能统计阻塞的 CANN 拷贝；%1</translation>
    </message>
    <message>
        <source>Host&lt;-&gt;device transfers inside the step</source>
        <translation>Step 内存在 Host&lt;-&gt;Device 传输</translation>
    </message>
    <message>
        <source>Each .item(), .cpu() or print of a device tensor waits for the device and copies: remove them from the loop or read every N steps (accumulate on the device), and copy inputs with non_blocking=True.</source>
        <translation>每次对 Device 张量调用 .item()、.cpu() 或 print 都会等待 Device 并拷贝：把它们移出循环，或每 N 个 Step 读取一次（在 Device 上累积），并以 non_blocking=True 拷贝输入。</translation>
    </message>
    <message>
        <source>No host&lt;-&gt;device transfers inside the step</source>
        <translation>Step 内没有 Host&lt;-&gt;Device 传输</translation>
    </message>
    <message>
        <source>(synchronise-stream calls right after a Node@launch) / launches &gt; %1</source>
        <translation>（紧跟在 Node@launch 之后的流同步调用）/ 下发次数 &gt; %1</translation>
    </message>
    <message>
        <source>Synchronise after launch: unknown</source>
        <translation>下发后同步：未知</translation>
    </message>
    <message>
        <source>no Node@launch recorded: %1</source>
        <translation>未记录 Node@launch：%1</translation>
    </message>
    <message>
        <source>Level0 prunes the CANN layer; older CANN does not write it</source>
        <translation>Level0 会裁掉 CANN 层；较老的 CANN 不写它</translation>
    </message>
    <message>
        <source>%1, %2, %3 right after a launch (ratio %4)</source>
        <translation>%1，%2，其中 %3 次紧跟在下发之后（比例 %4）</translation>
    </message>
    <message>
        <source>synchronise-stream call</source>
        <translation>次流同步调用</translation>
    </message>
    <message>
        <source>synchronise-stream calls</source>
        <translation>次流同步调用</translation>
    </message>
    <message>
        <source>launch</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>launches</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>Stream synchronised after most launches</source>
        <translation>大多数下发之后都同步了流</translation>
    </message>
    <message>
        <source>Launches run synchronously, probably ASCEND_LAUNCH_BLOCKING=1: unset it (export ASCEND_LAUNCH_BLOCKING=0) outside debugging.</source>
        <translation>下发以同步方式执行，可能设置了 ASCEND_LAUNCH_BLOCKING=1：非调试时取消它（export ASCEND_LAUNCH_BLOCKING=0）。</translation>
    </message>
    <message>
        <source>Synchronise after launch below the mark</source>
        <translation>下发后同步低于界线</translation>
    </message>
    <message>
        <source>a Python GC pause of %1 or more</source>
        <translation>Python GC 停顿达到 %1 及以上</translation>
    </message>
    <message>
        <source>GC pauses: unknown</source>
        <translation>GC 停顿：未知</translation>
    </message>
    <message>
        <source>no Python GC events (the profiler records them only with experimental_config gc_detect_threshold)</source>
        <translation>没有 Python GC 事件（仅在设置 experimental_config gc_detect_threshold 时 Profiler 才会记录）</translation>
    </message>
    <message>
        <source>%1 of %2 GC pauses at or above the mark, %3 in all; the longest %4</source>
        <translation>%2 次 GC 停顿中有 %1 次达到界线，共 %3；最长 %4</translation>
    </message>
    <message>
        <source>Long Python GC pauses</source>
        <translation>Python GC 停顿较长</translation>
    </message>
    <message>
        <source>Garbage collection stops the host: call gc.freeze() after the model is built, raise the thresholds (gc.set_threshold) or collect between steps (gc.disable() and gc.collect() every N steps).</source>
        <translation>垃圾回收会让 Host 停顿：在模型构建后调用 gc.freeze()，调高阈值（gc.set_threshold），或在 Step 之间回收（gc.disable()，并每 N 个 Step 调用一次 gc.collect()）。</translation>
    </message>
    <message>
        <source>GC pauses short</source>
        <translation>GC 停顿较短</translation>
    </message>
    <message>
        <source>backward / forward device time &gt; %1</source>
        <translation>反向 / 正向 Device 时间 &gt; %1</translation>
    </message>
    <message>
        <source>Forward vs backward: unknown</source>
        <translation>正向与反向：未知</translation>
    </message>
    <message>
        <source>the trace does not mark the passes (no fwdbwd flow)</source>
        <translation>Trace 没有标记正向/反向（没有 fwdbwd 连线）</translation>
    </message>
    <message>
        <source>no forward device time found</source>
        <translation>没有找到正向的 Device 时间</translation>
    </message>
    <message>
        <source>forward %1, backward %2 per step (ratio %3); forward includes the optimizer step</source>
        <translation>每 Step 正向 %1，反向 %2（比例 %3）；正向包含优化器更新</translation>
    </message>
    <message>
        <source>Backward far longer than forward</source>
        <translation>反向远长于正向</translation>
    </message>
    <message>
        <source>Some operator has no efficient backward kernel: look at the longest backward kernels (non-fused grads, layout copies) and replace the forward op by one with a fused backward.</source>
        <translation>某些算子没有高效的反向 kernel：查看耗时最长的反向 kernel（未融合的梯度、布局拷贝），并把对应的正向算子换成带融合反向的版本。</translation>
    </message>
    <message>
        <source>Some operator has no efficient NPU backward: look at the longest backward kernels (AI_CPU, TransData, non-fused grads) and replace the forward op by one with a fused NPU backward.</source>
        <translation>某些算子没有高效的 NPU 反向实现：查看耗时最长的反向 kernel（AI_CPU、TransData、未融合的梯度），并把对应的正向算子换成带融合 NPU 反向的版本。</translation>
    </message>
    <message>
        <source>Forward vs backward balanced</source>
        <translation>正向与反向均衡</translation>
    </message>
    <message>
        <source>ASCEND_LAUNCH_BLOCKING=1, ASCEND_GLOBAL_LOG_LEVEL 0/1, TASK_QUEUE_ENABLE=0 are issues; ACLNN_CACHE_LIMIT / HOST_CACHE_CAPACITY unset, PYTORCH_NPU_ALLOC_CONF without expandable_segments, HCCL_ALGO set are worth a look</source>
        <translation>ASCEND_LAUNCH_BLOCKING=1、ASCEND_GLOBAL_LOG_LEVEL 0/1、TASK_QUEUE_ENABLE=0 属于问题；未设置 ACLNN_CACHE_LIMIT / HOST_CACHE_CAPACITY、PYTORCH_NPU_ALLOC_CONF 不含 expandable_segments、设置了 HCCL_ALGO 值得一看</translation>
    </message>
    <message>
        <source>Environment variables: unknown</source>
        <translation>环境变量：未知</translation>
    </message>
    <message>
        <source>profiler_metadata.json has no ENV_VARIABLES</source>
        <translation>profiler_metadata.json 中没有 ENV_VARIABLES</translation>
    </message>
    <message>
        <source>ASCEND_LAUNCH_BLOCKING=1 (every launch synchronous)</source>
        <translation>ASCEND_LAUNCH_BLOCKING=1（每次下发都同步）</translation>
    </message>
    <message>
        <source>ASCEND_GLOBAL_LOG_LEVEL=%1 (debug/info logging)</source>
        <translation>ASCEND_GLOBAL_LOG_LEVEL=%1（debug/info 日志）</translation>
    </message>
    <message>
        <source>TASK_QUEUE_ENABLE=0 (no task queue)</source>
        <translation>TASK_QUEUE_ENABLE=0（没有任务队列）</translation>
    </message>
    <message>
        <source>ACLNN_CACHE_LIMIT unset (e.g. 100000 when host bound)</source>
        <translation>未设置 ACLNN_CACHE_LIMIT（Host 受限时例如设为 100000）</translation>
    </message>
    <message>
        <source>HOST_CACHE_CAPACITY unset (e.g. 20 with dynamic shapes)</source>
        <translation>未设置 HOST_CACHE_CAPACITY（动态 shape 时例如设为 20）</translation>
    </message>
    <message>
        <source>PYTORCH_NPU_ALLOC_CONF without expandable_segments:True</source>
        <translation>PYTORCH_NPU_ALLOC_CONF 不含 expandable_segments:True</translation>
    </message>
    <message>
        <source>HCCL_ALGO=%1 (automatic is usually better)</source>
        <translation>HCCL_ALGO=%1（通常自动选择更好）</translation>
    </message>
    <message>
        <source>%1 variables recorded, none flagged</source>
        <translation>记录了 %1 个变量，都没有问题</translation>
    </message>
    <message>
        <source>Environment slows the run</source>
        <translation>环境设置拖慢了运行</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>Environment settings to consider</source>
        <translation>可考虑的环境设置</translation>
    </message>
    <message>
        <source>Set them when the matching bottleneck shows (ACLNN_CACHE_LIMIT=100000, HOST_CACHE_CAPACITY=20 for host-bound dynamic shapes; PYTORCH_NPU_ALLOC_CONF=expandable_segments:True for fragmentation).</source>
        <translation>出现对应瓶颈时再设置（Host 受限且 shape 动态时设 ACLNN_CACHE_LIMIT=100000、HOST_CACHE_CAPACITY=20；内存碎片时设 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True）。</translation>
    </message>
    <message>
        <source>Environment fine</source>
        <translation>环境设置正常</translation>
    </message>
    <message>
        <source>peak reserved &gt;= %1% of the device memory (%2); the %3 largest allocators live at the peak</source>
        <translation>峰值预留 &gt;= Device 内存的 %1%（%2）；列出峰值时存活的 %3 个最大分配者</translation>
    </message>
    <message>
        <source>capacity unknown: set device_memory_gb</source>
        <translation>容量未知：请设置 device_memory_gb</translation>
    </message>
    <message>
        <source>SDMA below %1 (%2 of %3)</source>
        <translation>SDMA 低于 %1（%3 的 %2）</translation>
    </message>
    <message>
        <source>; RDMA below %1</source>
        <translation>；RDMA 低于 %1</translation>
    </message>
    <message>
        <source>; RDMA not judged (no nominal)</source>
        <translation>；不判断 RDMA（没有标称值）</translation>
    </message>
    <message>
        <source>utilisation &lt; %1 of the chip&apos;s peak; &gt;= %2 efficient</source>
        <translation>利用率 &lt; 芯片峰值的 %1；&gt;= %2 为高效</translation>
    </message>
    <message>
        <source>op types with &gt;= %1 of kernel time (at most %2); the pipe with the highest ratio, if &gt;= %3, bounds the op</source>
        <translation>占 kernel 时间 &gt;= %1 的算子类型（最多 %2 个）；占比最高的流水线若 &gt;= %3，则它限制了该算子</translation>
    </message>
    <message>
        <source> (lowest %1)</source>
        <translation>（最低 %1）</translation>
    </message>
    <message>
        <source> (no kernel_details.csv: overlap unknown)</source>
        <translation>（没有 kernel_details.csv：重叠情况未知）</translation>
    </message>
    <message>
        <source>, %1 below the mark</source>
        <translation>，其中 %1 个低于界线</translation>
    </message>
    <message>
        <source>%1: %2 of %3 ops small (%4, %5 of transit)</source>
        <translation>%1：%3 个通信算子中有 %2 个是小包（%4，传输 %5）</translation>
    </message>
    <message>
        <source>OP State: %1 dynamic, %2 static</source>
        <translation>OP State：%1 个 dynamic，%2 个 static</translation>
    </message>
    <message>
        <source> (msprof-analyze&apos;s rule would say every op is dynamic-shape; torch_npu&apos;s eager kernels record dynamic, so this alone does not tell)</source>
        <translation>（按 msprof-analyze 的规则每个算子都是动态 shape；但 torch_npu 的 eager kernel 都记录为 dynamic，所以仅凭这一点无法判断）</translation>
    </message>
    <message>
        <source>%1 step with shapes: shapes that differ between layers cannot be told from shapes that change between steps</source>
        <translation>只有 %1 个 Step 带 shape：无法区分层与层之间不同的 shape 和 Step 之间变化的 shape</translation>
    </message>
    <message>
        <source>%1 of %2 element-wise/normalisation tasks with a known launch (%3 per step) take longer to launch (%4) than to run (%5)</source>
        <translation>在已知下发的 %2 个逐元素/归一化任务中，有 %1 个（每 Step %3 个）下发耗时（%4）长于运行耗时（%5）</translation>
    </message>
    <message>
        <source>no profiler folder</source>
        <translation>没有 Profiler 目录</translation>
    </message>
    <message>
        <source>no communication.json (written at Level1 / Level2 when the run communicates)</source>
        <translation>没有 communication.json（运行有通信且为 Level1 / Level2 时才会写入）</translation>
    </message>
    <message>
        <source>%1 calls in %2 (%3 per step), %4 in all</source>
        <translation>%2 中共 %1 次调用（每 Step %3 次），共 %4</translation>
    </message>
    <message>
        <source>step</source>
        <translation>个 Step</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>个 Step</translation>
    </message>
    <message>
        <source>%1 transfers in %2, %3 on the device</source>
        <translation>%2 中共 %1 次传输，Device 上 %3</translation>
    </message>
    <message>
        <source>%1 transfers in %2, %3 on the host</source>
        <translation>%2 中共 %1 次传输，Host 上 %3</translation>
    </message>
    <message>
        <source>%1 of %2 MatMul/Conv kernels computable: %3 TFLOPS on average (%4, %5 GFLOP in %6)</source>
        <translation>%2 个 MatMul/Conv kernel 中有 %1 个可计算：平均 %3 TFLOPS（%4，%6 内 %5 GFLOP）</translation>
    </message>
    <message>
        <source>%1: peak allocated %2, lowest %3 inside the steps (held throughout: weights, optimizer state), so %4 transient; peak reserved %5</source>
        <translation>%1：峰值分配 %2，Step 内最低 %3（全程占用：权重、优化器状态），因此 %4 是临时分配；峰值预留 %5</translation>
    </message>
    <message>
        <source>%1: peak allocated %2, lowest %3 (held throughout: weights, optimizer state), so %4 transient; peak reserved %5</source>
        <translation>%1：峰值分配 %2，最低 %3（全程占用：权重、优化器状态），因此 %4 是临时分配；峰值预留 %5</translation>
    </message>
    <message>
        <source>; %1 of %2</source>
        <translation>；占 %2 的 %1</translation>
    </message>
    <message>
        <source>the device&apos;s Free time</source>
        <translation>Device 的空闲（Free）时间</translation>
    </message>
    <message>
        <source>a faster host only gives back the time the device waits for it</source>
        <translation>Host 更快只能换回 Device 等待它的时间</translation>
    </message>
    <message>
        <source>the device&apos;s Computing time</source>
        <translation>Device 的计算时间</translation>
    </message>
    <message>
        <source>faster kernels only shorten the time the device computes</source>
        <translation>更快的 kernel 只能缩短 Device 计算的时间</translation>
    </message>
    <message>
        <source>the device&apos;s Communication (Not Overlapped) time</source>
        <translation>Device 的未掩盖通信时间</translation>
    </message>
    <message>
        <source>faster collectives only shorten the communication not hidden behind computation</source>
        <translation>更快的集合通信只能缩短未被计算掩盖的通信</translation>
    </message>
    <message>
        <source>bounded by %1 per step (%2); the rule&apos;s own figure, %3, is more: %4</source>
        <translation>以每 Step %1（%2）为上限；规则自身算出的 %3 更多：%4</translation>
    </message>
    <message>
        <source>GPU trace: the Ascend-only rules (MatMul peak of Ascend chips, AI_CPU, ACLOP compilation, short element-wise ops, synchronise after launch, Python GC, pipelines, block dim, environment variables, memory, communication alignment / bandwidth / packets, AI Core frequency, dynamic shapes, affinity APIs, fusible sequences) were not run</source>
        <translation>GPU Trace：未运行昇腾专用规则（昇腾芯片的 MatMul 峰值、AI_CPU、ACLOP 编译、短小的逐元素算子、下发后同步、Python GC、流水线、block dim、环境变量、内存、通信对齐 / 带宽 / 小包、AI Core 频率、动态 shape、亲和 API、可融合序列）</translation>
    </message>
    <message>
        <source>%1 or more matches of a timeline_fusion_ops.yaml sequence of top-level torch ops (one thread) or of an Optimizer.step record of an optimizer with a fused torch_npu version</source>
        <translation>顶层 torch 算子（同一线程）与 timeline_fusion_ops.yaml 中某个序列匹配，或某个有 torch_npu 融合版本的优化器的 Optimizer.step 记录匹配，达到 %1 次及以上</translation>
    </message>
    <message>
        <source>Affinity APIs: unknown</source>
        <translation>亲和 API：未知</translation>
    </message>
    <message>
        <source>the trace holds no torch op (aten::) on the Python threads</source>
        <translation>Trace 的 Python 线程上没有 torch 算子（aten::）</translation>
    </message>
    <message>
        <source>the framework layer (torch ops) was not recorded (MindSpore / GE graph mode through msprof?)</source>
        <translation>未记录框架层（torch 算子）（经 msprof 采集的 MindSpore / GE 图模式？）</translation>
    </message>
    <message>
        <source>%1 over %2 top-level torch ops</source>
        <translation>在 %2 个顶层 torch 算子中有 %1</translation>
    </message>
    <message>
        <source>match</source>
        <translation>处匹配</translation>
    </message>
    <message>
        <source>matches</source>
        <translation>处匹配</translation>
    </message>
    <message>
        <source>. The time a fused API would save is not measured: time at stake unknown (0)</source>
        <translation>。融合 API 能节省的时间未测量：可节省时间未知（0）</translation>
    </message>
    <message>
        <source>Affinity APIs available for what the model calls</source>
        <translation>模型调用的代码有可用的亲和 API</translation>
    </message>
    <message>
        <source>Replace the matched code with its fused torch_npu API: %1 (one fused call instead of several launches; check the API&apos;s constraints in the torch_npu docs, and record with_stack to find the call sites).</source>
        <translation>把匹配到的代码替换为对应的 torch_npu 融合 API：%1（一次融合调用代替多次下发；请在 torch_npu 文档中确认该 API 的约束，并开启 with_stack 采集以找到调用位置）。</translation>
    </message>
    <message>
        <source>No affinity-API sequence found</source>
        <translation>未发现可替换为亲和 API 的序列</translation>
    </message>
    <message>
        <source>Fusible operator sequences: unknown</source>
        <translation>可融合的算子序列：未知</translation>
    </message>
    <message>
        <source>kernel_details.csv was not read (it lists the tasks in order with their shapes)</source>
        <translation>未读取 kernel_details.csv（它按顺序列出任务及其 shape）</translation>
    </message>
    <message>
        <source>%1 sequences (%2 host bound, %3 MTE bound) among %4 tasks</source>
        <translation>%4 个任务中有 %1 个序列（%2 个受 Host 限制，%3 个受 MTE 限制）</translation>
    </message>
    <message>
        <source>; MTE bound not judged: kernel_details.csv has no MTE columns (Level1 with PipeUtilization writes them)</source>
        <translation>；未判断是否受 MTE 限制：kernel_details.csv 没有 MTE 列（Level1 且为 PipeUtilization 时才会写入）</translation>
    </message>
    <message>
        <source>. Sequences overlap (a sliding window over the same tasks) and what a fused kernel saves is not known: time at stake unknown (0)</source>
        <translation>。序列之间相互重叠（在同一批任务上滑动窗口），融合 kernel 能节省多少未知：可节省时间未知（0）</translation>
    </message>
    <message>
        <source>Fusible operator sequences</source>
        <translation>可融合的算子序列</translation>
    </message>
    <message>
        <source>Host-bound runs: many small launches, look for a fused torch_npu API or graph mode (torch.compile / torchair); MTE-bound runs move data between kernels: ask whether the sequence can be one fused kernel. Row numbers are kernel_details.csv&apos;s, from 0 without the header.</source>
        <translation>受 Host 限制的序列：大量小下发，寻找 torch_npu 融合 API 或使用图模式（torch.compile / torchair）；受 MTE 限制的序列在 kernel 之间搬运数据：考虑该序列能否合成一个融合 kernel。行号是 kernel_details.csv 的行号，不含表头、从 0 开始。</translation>
    </message>
    <message>
        <source>No fusible operator sequence</source>
        <translation>没有可融合的算子序列</translation>
    </message>
    <message>
        <source>ACLOP on the host (compile or execute) is the cause of %1 holding %2 (the bubbles, docs/diagnosis.md §3)</source>
        <translation>Host 上的 ACLOP（编译或执行）是 %1的原因，共 %2（空泡，docs/diagnosis.md §3）</translation>
    </message>
    <message>
        <source>; the device is idle %1 just before them (the most a faster launch can save)</source>
        <translation>；在它们之前 Device 空闲 %1（这是更快的下发最多能节省的时间）</translation>
    </message>
    <message>
        <source>a run of %1 to %2 consecutive tasks occurring more than %3 times, host bound (task time / wall span &lt; %4) or MTE bound (MTE time / aicore time &gt; %5), and over %6% of the kernels&apos; span in all (or MTE bound)</source>
        <translation>由 %1 到 %2 个连续任务组成、出现超过 %3 次的序列，受 Host 限制（任务时间 / 墙钟跨度 &lt; %4）或受 MTE 限制（MTE 时间 / aicore 时间 &gt; %5），且总计超过 kernel 跨度的 %6%（或受 MTE 限制）</translation>
    </message>
    <message>
        <source>dtype not recorded</source>
        <translation>未记录数据类型</translation>
    </message>
    <message>
        <source>MatMul/Conv at or above %1% of the FP32 peak; HF32 not recorded</source>
        <translation>MatMul/Conv 达到 FP32 峰值的 %1% 或以上；未记录 HF32</translation>
    </message>
    <message>
        <source>; the kernel table does not record HF32 eligibility: kernels that run in HF32 have a higher peak, so efficiency cannot be told</source>
        <translation>；算子表未记录 HF32 资格：以 HF32 运行的算子峰值更高，因此无法判断是否高效</translation>
    </message>
    <message>
        <source>%1 has no rows</source>
        <translation>%1 没有数据行</translation>
    </message>
    <message>
        <source>the .db export has no MEMORY_RECORD table (written with profile_memory=True)</source>
        <translation>.db 导出中没有 MEMORY_RECORD 表（profile_memory=True 时写入）</translation>
    </message>
    <message>
        <source>%1 has no Total Allocated values</source>
        <translation>%1 中没有 Total Allocated 值</translation>
    </message>
    <message>
        <source>; the .db export has no OP_MEMORY table: the allocators are unknown</source>
        <translation>；.db 导出中没有 OP_MEMORY 表：分配者未知</translation>
    </message>
    <message>
        <source>; %1 has no allocation live at the peak</source>
        <translation>；%1 中没有在峰值时仍存活的分配</translation>
    </message>
    <message>
        <source>; read from %1 and %2</source>
        <translation>；数据来自 %1 和 %2</translation>
    </message>
    <message>
        <source>; read from %1</source>
        <translation>；数据来自 %1</translation>
    </message>
    <message>
        <source>the .db export has no analysis.db CommAnalyzerTime table (written at Level1 / Level2 when the run communicates)</source>
        <translation>.db 导出没有 analysis.db 的 CommAnalyzerTime 表（Level1 / Level2 且有通信时写入）</translation>
    </message>
    <message>
        <source>%1 of %2 ops with SDMA traffic below the mark%3, %4 of them while a MatMul kernel runs%5; %6 ops with RDMA traffic%7; read from %8</source>
        <translation>%2 个有 SDMA 流量的通信算子中有 %1 个低于界线%3，其中 %4 个发生在 MatMul kernel 运行期间%5；%6 个有 RDMA 流量的通信算子%7；数据来自 %8</translation>
    </message>
    <message>
        <source>%1 peak allocated %2</source>
        <translation>%1 分配峰值 %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>; the peak lies %1 before the trace starts</source>
        <translation>；峰值位于 trace 开始之前 %1</translation>
    </message>
    <message>
        <source>; the peak lies %1 after the trace ends</source>
        <translation>；峰值位于 trace 结束之后 %1</translation>
    </message>
    <message>
        <source>the trace&apos;s HCCL plane tasks</source>
        <translation>Trace 中的 HCCL Plane 任务</translation>
    </message>
    <message>
        <source>; %1 convolution(s) counted with their channels padded to C0 (no torch op with Input Dims linked): their FLOPs are an upper bound</source>
        <translation>；%1 个卷积按补齐到 C0 的通道数计算（未关联到带 Input Dims 的 torch 算子）：其 FLOPs 为上界</translation>
    </message>
    <message>
        <source>Matrix operator below half the peak</source>
        <translation>矩阵类算子低于峰值的一半</translation>
    </message>
    <message>
        <source>Matrix operator between the marks</source>
        <translation>矩阵类算子介于两条标线之间</translation>
    </message>
    <message>
        <source>Matrix operator already fast</source>
        <translation>矩阵类算子已经很快</translation>
    </message>
    <message>
        <source>Matrix operator: utilisation unknown</source>
        <translation>矩阵类算子：利用率未知</translation>
    </message>
    <message>
        <source>Matrix operator: FLOPs unknown</source>
        <translation>矩阵类算子：FLOPs 未知</translation>
    </message>
    <message>
        <source>Operator fell back to AI_CPU</source>
        <translation>算子回退到 AI_CPU</translation>
    </message>
    <message>
        <source>Many short operators: fuse them</source>
        <translation>大量短算子：建议融合</translation>
    </message>
    <message>
        <source>Slow operator, not a CPU fallback</source>
        <translation>慢算子（非 CPU 回退）</translation>
    </message>
    <message>
        <source>Host/device transfers</source>
        <translation>Host/Device 数据传输</translation>
    </message>
    <message>
        <source>.item() syncs in the step</source>
        <translation>迭代内的 .item() 同步</translation>
    </message>
    <message>
        <source>A storm of small launches</source>
        <translation>大量细碎的小算子下发</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>utilisation &lt; %1 of the peak: issue, &gt;= %2: fast</source>
        <translation>利用率 &lt; 峰值的 %1：问题，&gt;= %2：已很快</translation>
    </message>
    <message>
        <source>Accelerator Core AI_CPU</source>
        <translation>Accelerator Core 为 AI_CPU</translation>
    </message>
    <message>
        <source>mean under %1 and %2 or more calls per step</source>
        <translation>平均耗时低于 %1 且每个迭代调用 %2 次及以上</translation>
    </message>
    <message>
        <source>%1 or more kernels per step, half of them under %2</source>
        <translation>每个迭代 %1 个及以上 kernel，其中一半短于 %2</translation>
    </message>
    <message>
        <source>the 10 longest operator groups and any holding %1 of Computing</source>
        <translation>耗时最长的 10 个算子组，以及占 Computing %1 及以上的算子组</translation>
    </message>
    <message>
        <source>; the capture names only the chip family %1, whose models&apos; peaks differ (e.g. Ascend910B1 to Ascend910B4): give the model with --chip</source>
        <translation>；采集只记录了芯片系列 %1，其各型号的峰值不同（例如 Ascend910B1 至 Ascend910B4）：请用 --chip 给出具体型号</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>group rank %1 of %2 (not in this capture)</source>
        <translation>%2 的通信组内 Rank %1（不在本次采集中）</translation>
    </message>
    <message>
        <source>a member arrives %1 or more after this rank</source>
        <translation>有成员比本 Rank 晚到 %1 及以上</translation>
    </message>
    <message>
        <source>Waits in collectives for %1</source>
        <translation>在集合通信中等待 %1</translation>
    </message>
    <message>
        <source>Waits in collectives for a later rank</source>
        <translation>在集合通信中等待晚到的 Rank</translation>
    </message>
    <message>
        <source>%1 in all in %2 of %3 collectives, waiting for the member that arrives last; the longest %4 in %5</source>
        <translation>在 %3 个集合通信中的 %2 个里等待最后到达的成员，共 %1；最长一次 %4，在 %5</translation>
    </message>
    <message>
        <source>The rank that holds the collectives is not in this capture: capture it (or the whole group) to see what delays it; this rank only waits.</source>
        <translation>拖住集合通信的 Rank 不在本次采集中：请采集它（或整个通信组），以查明它晚到的原因；本 Rank 只是在等待。</translation>
    </message>
    <message>
        <source>This rank only waits: open the holder&apos;s rank and fix what makes it late (its own verdict: computing, host dispatch or data loading).</source>
        <translation>本 Rank 只是在等待：请打开拖住它的 Rank，修复使其晚到的原因（看它自己的结论：计算、Host 下发或数据加载）。</translation>
    </message>
    <message>
        <source>Late to collectives: the other ranks wait for this one</source>
        <translation>晚到集合通信：其他 Rank 在等待本 Rank</translation>
    </message>
    <message>
        <source>the last to arrive in %1 of %2 collectives; the other loaded ranks wait %3 in all</source>
        <translation>在 %2 个集合通信中的 %1 个里最后到达；其他已加载的 Rank 共等待 %3</translation>
    </message>
    <message>
        <source>What makes this rank reach its collectives late (see its verdict and bubbles: computing, host dispatch or data loading before the op) holds every other rank of the group.</source>
        <translation>使本 Rank 晚到集合通信的原因（看它的结论和空泡：算子之前的计算、Host 下发或数据加载）拖住了通信组内的所有其他 Rank。</translation>
    </message>
    <message>
        <source>%1: %2 x %3 (%4 on the host)</source>
        <translation>%1：%2 次 %3（主机上 %4）</translation>
    </message>
    <message>
        <source>%1 of the optimizer steps already run foreach kernels (aten::_foreach_*), so the fused optimizer may save little there</source>
        <translation>%1 个优化器 step 已运行 foreach kernel（aten::_foreach_*），融合优化器在此可节省的时间可能很少</translation>
    </message>
    <message>
        <source>%1 occurrences left out (key hash collision)</source>
        <translation>%1 处未计入（键哈希冲突）</translation>
    </message>
    <message>
        <source>NPU %1 %2: highest %3, lowest %4, %5 at or below %6 inside the steps&apos; device windows</source>
        <translation>NPU %1 %2：最高 %3，最低 %4，在各 Step 的 Device 时间窗内等于或低于 %6 的时间为 %5</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Breakdown</name>
    <message>
        <source>communication.json holds no op</source>
        <translation>communication.json 中没有通信算子</translation>
    </message>
    <message>
        <source>%1 problem(s), first: %2</source>
        <translation>%1 个问题，第一个：%2</translation>
    </message>
    <message>
        <source>no communication.json</source>
        <translation>没有 communication.json</translation>
    </message>
    <message>
        <source>backward = launched from a thread that ends a fwdbwd flow</source>
        <translation>反向 = 由作为 fwdbwd 连线终点的线程下发</translation>
    </message>
    <message>
        <source>not marked (no fwdbwd flow)</source>
        <translation>未标记（没有 fwdbwd 连线）</translation>
    </message>
    <message>
        <source>kernel_details.csv Accelerator Core (%1 without a row: trace Task Type)</source>
        <translation>kernel_details.csv 的 Accelerator Core（%1没有对应行：取 Trace 的 Task Type）</translation>
    </message>
    <message>
        <source>task</source>
        <translation>个任务</translation>
    </message>
    <message>
        <source>tasks</source>
        <translation>个任务</translation>
    </message>
    <message>
        <source>trace Task Type</source>
        <translation>Trace 的 Task Type</translation>
    </message>
    <message>
        <source>kernel_details.csv Type, else task name</source>
        <translation>kernel_details.csv 的 Type，否则取任务名</translation>
    </message>
    <message>
        <source>task name</source>
        <translation>任务名</translation>
    </message>
    <message>
        <source>op</source>
        <translation>个通信算子</translation>
    </message>
    <message>
        <source>ops</source>
        <translation>个通信算子</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>正向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>no launch</source>
        <translation>无下发</translation>
    </message>
    <message>
        <source>several at once %1</source>
        <translation>多个同时 %1</translation>
    </message>
    <message>
        <source>; forward/backward %1</source>
        <translation>；正向/反向：%1</translation>
    </message>
    <message>
        <source>Computing %1: %2</source>
        <translation>计算 %1：%2</translation>
    </message>
    <message>
        <source>Computing (%1) is made of: %2.</source>
        <translation>计算（%1）的构成：%2。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>peer rank %1</source>
        <translation>对端 Rank %1</translation>
    </message>
    <message>
        <source>an unrecorded peer</source>
        <translation>未记录的对端</translation>
    </message>
    <message>
        <source>synchronization %1</source>
        <translation>同步 %1</translation>
    </message>
    <message>
        <source> (waiting for %1)</source>
        <translation>（等待%1）</translation>
    </message>
    <message>
        <source>idle %1</source>
        <translation>空闲 %1</translation>
    </message>
    <message>
        <source>other planes wait for %1 %2</source>
        <translation>其他 Plane 等待%1 占 %2</translation>
    </message>
    <message>
        <source>other planes move data %1</source>
        <translation>其他 Plane 搬运数据 %1</translation>
    </message>
    <message>
        <source>no task recorded %1</source>
        <translation>无任务记录 %1</translation>
    </message>
    <message>
        <source>%1, transit %2, other wait %3, %4</source>
        <translation>%1，传输 %2，其他等待 %3，%4</translation>
    </message>
    <message>
        <source>recorded by the profiler (%1, whole ops, hidden or not): elapse %2, transit %3, wait %4 (of which synchronization %5), idle %6</source>
        <translation>Profiler 的记录值（%1，按整个算子计，无论是否被掩盖）：耗时 %2，传输 %3，等待 %4（其中同步 %5），空闲 %6</translation>
    </message>
    <message>
        <source>exposed communication %1: %2</source>
        <translation>未掩盖通信 %1：%2</translation>
    </message>
    <message>
        <source>exposed communication %1: collective kernels on the streams (Kineto trace); its split is unknown (no HCCL plane task)</source>
        <translation>未掩盖通信 %1：流上的集合通信 kernel（Kineto Trace）；其构成未知（没有 HCCL Plane 任务）</translation>
    </message>
    <message>
        <source>exposed communication %1: its split is unknown (no HCCL plane task recorded: Level0 capture?)</source>
        <translation>未掩盖通信 %1：其构成未知（未记录 HCCL Plane 任务：Level0 采集？）</translation>
    </message>
    <message>
        <source>Of the exposed communication (%1): %2. Source: the HCCL plane tasks, the profiler&apos;s per-op rule (counted plane) applied to the exposed time.</source>
        <translation>未掩盖通信（%1）的构成：%2。来源：HCCL Plane 任务，在未掩盖的时间上应用 Profiler 的逐算子规则（取其统计的 Plane）。</translation>
    </message>
    <message>
        <source>The largest part is transit (%1): data moving on the links (%2). Below 80% of the nominal a link is slow (check the link and contention with compute); else send fewer, larger messages.</source>
        <translation>占比最大的是传输（%1）：数据在链路上搬运（%2）。低于标称带宽 80% 的链路偏慢（请检查该链路以及它与计算的争用）；否则请以更少、更大的消息通信。</translation>
    </message>
    <message>
        <source>no bandwidth recorded</source>
        <translation>未记录带宽</translation>
    </message>
    <message>
        <source>The largest part is waiting after the data started to move (%1): the peers progress at different speeds inside the ops.</source>
        <translation>占比最大的是数据开始搬运之后的等待（%1）：各对端在通信算子内部的推进速度不一致。</translation>
    </message>
    <message>
        <source>The largest part is idle on the counted plane (%1), but meanwhile other planes wait for %2 (%3): that peer is late to the collective; the profiler counts this as Idle, not as Synchronization. Look at that rank.</source>
        <translation>占比最大的是所统计 Plane 上的空闲（%1），但与此同时其他 Plane 在等待%2（%3）：该对端晚到集合通信；Profiler 把这段时间计为 Idle，而不是 Synchronization。请查看那个 Rank。</translation>
    </message>
    <message>
        <source>The largest part is idle on the counted plane (%1) while other planes move data (%2): transfers on the other links.</source>
        <translation>占比最大的是所统计 Plane 上的空闲（%1），与此同时其他 Plane 在搬运数据（%2）：即其他链路上的传输。</translation>
    </message>
    <message>
        <source>The largest part is idle inside the ops (%1) with no task recorded on any plane for most of it: its cause is unknown from this capture (HCCL&apos;s own work, or a stream waiting before the op&apos;s tasks).</source>
        <translation>占比最大的是通信算子内部的空闲（%1），其中大部分时间所有 Plane 上都没有记录任务：本次采集无法得知其原因（HCCL 自身的工作，或流在该算子的任务之前等待）。</translation>
    </message>
    <message>
        <source>The split of the exposed communication is unknown: a Kineto trace records collective kernels, not their tasks.</source>
        <translation>未掩盖通信的构成未知：Kineto Trace 只记录集合通信 kernel，不记录其任务。</translation>
    </message>
    <message>
        <source>The split of the exposed communication is unknown: the capture has no HCCL plane tasks (profiler_level Level1 records them).</source>
        <translation>未掩盖通信的构成未知：本次采集没有 HCCL Plane 任务（profiler_level 为 Level1 时才会记录）。</translation>
    </message>
    <message>
        <source>%1, %2 of its nominal %3</source>
        <translation>%1，为其标称带宽 %3 的 %2</translation>
    </message>
    <message>
        <source>The largest part is synchronization (%1): inside the collectives this rank waits for %2 to arrive (it reaches them before that peer, whatever the other ranks do). Look at what delays that peer before the collective (its compute, dispatch or data loading).</source>
        <translation>占比最大的是同步（%1）：在集合通信中，该 Rank 在等待 %2 到达（它比该对端先到，与其他 Rank 无关）。请查看该对端在集合通信之前被什么拖慢（计算、下发或数据加载）。</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Bubbles</name>
    <message>
        <source> in %1</source>
        <translation>，位于 %1 内</translation>
    </message>
    <message>
        <source> called from %1</source>
        <translation>，调用自 %1</translation>
    </message>
    <message>
        <source>the host layer (torch ops, runtime calls) was not recorded in this capture: the cause cannot be told</source>
        <translation>本次采集未记录 Host 层（torch 算子、Runtime 调用）：无法判断原因</translation>
    </message>
    <message>
        <source>the host layers (Python, CANN) were not recorded in this capture: the cause cannot be told</source>
        <translation>本次采集未记录 Host 层（Python、CANN）：无法判断原因</translation>
    </message>
    <message>
        <source>copy tasks (%1) run on the device for %2 of the gap</source>
        <translation>拷贝任务（%1）在 Device 上运行，占间隙的 %2</translation>
    </message>
    <message>
        <source>the device waits on an event/notify task (%1) for %2 of the gap: a stream dependency or a collective on another stream</source>
        <translation>Device 在等待 event/notify 任务（%1），占间隙的 %2：流间依赖，或其他流上的集合通信</translation>
    </message>
    <message>
        <source>collective launch: %1 was launching %2 for %3 of the gap; the operators behind it in the queue waited</source>
        <translation>集合通信下发：%1 正在下发 %2，占间隙的 %3；队列中排在它之后的算子在等待</translation>
    </message>
    <message>
        <source>%1 was launched %2 before the device went idle and started only when the gap ended: the host was ahead, the delay is on the device side (no task of this device in the trace explains it)</source>
        <translation>%1 在 Device 空闲之前 %2 已下发，却在间隙结束时才开始执行：Host 领先，延迟在 Device 侧（Trace 中本 Device 的任务无法解释它）</translation>
    </message>
    <message>
        <source>operator compilation: %1 (%2 of the gap)</source>
        <translation>算子编译：%1（占间隙的 %2）</translation>
    </message>
    <message>
        <source>, inside %1 %2</source>
        <translation>，位于 %1 %2 内</translation>
    </message>
    <message>
        <source>%1: compile step %2, the rest (%3) is the ACLOP path on the host outside compilation (%4 of the gap)</source>
        <translation>%1：编译步骤 %2，其余部分（%3）是编译之外 Host 上的 ACLOP 路径（占间隙的 %4）</translation>
    </message>
    <message>
        <source>queue side: %1 was enqueued %2 before the device went idle but dequeued %3 after its Enqueue: the dequeue thread was busy with earlier operators (Enqueue/Dequeue %4, CANN %5 of the gap)</source>
        <translation>队列侧：%1 在 Device 空闲之前 %2 已入队，但在 Enqueue 之后 %3 才出队：出队线程忙于处理更早的算子（Enqueue/Dequeue 占间隙的 %4，CANN 占 %5）</translation>
    </message>
    <message>
        <source>%1 was waiting for the device when it ran out of work (%2 of the gap)</source>
        <translation>Device 无任务可做时，%1 正在等待 Device（占间隙的 %2）</translation>
    </message>
    <message>
        <source>%1 (%2 of the gap)</source>
        <translation>%1（占间隙的 %2）</translation>
    </message>
    <message>
        <source>data loading covers %1 of the gap</source>
        <translation>数据加载覆盖间隙的 %1</translation>
    </message>
    <message>
        <source>launch</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>launches</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1和 %2</translation>
    </message>
    <message>
        <source>torch op</source>
        <translation>个 torch 算子</translation>
    </message>
    <message>
        <source>torch ops</source>
        <translation>个 torch 算子</translation>
    </message>
    <message>
        <source>the host was busy dispatching: %1 started in the gap (host busy %2: torch ops %3, runtime API %4 of the gap)</source>
        <translation>Host 忙于下发：间隙内开始了 %1（Host 忙碌 %2：torch 算子占间隙的 %3，Runtime API 占 %4）</translation>
    </message>
    <message>
        <source>the host was busy dispatching: %1 started in the gap (host busy %2: framework %3, runtime API %4 of the gap)</source>
        <translation>Host 忙于下发：间隙内开始了 %1（Host 忙碌 %2：框架占间隙的 %3，Runtime API 占 %4）</translation>
    </message>
    <message>
        <source>the host was busy dispatching: %1 started in the gap (host busy %2: torch ops %3, Enqueue/Dequeue %4, CANN %5 of the gap)</source>
        <translation>Host 忙于下发：间隙内开始了 %1（Host 忙碌 %2：torch 算子占间隙的 %3，Enqueue/Dequeue 占 %4，CANN 占 %5）</translation>
    </message>
    <message>
        <source>the host was busy dispatching: %1 started in the gap (host busy %2: framework %3, Enqueue/Dequeue %4, CANN %5 of the gap)</source>
        <translation>Host 忙于下发：间隙内开始了 %1（Host 忙碌 %2：框架占间隙的 %3，Enqueue/Dequeue 占 %4，CANN 占 %5）</translation>
    </message>
    <message>
        <source>no CANN activity for %1 of the gap, and the framework layer (e.g. MindSpore / GE graph mode) is not in this capture: what the host did is not recorded, the cause cannot be told</source>
        <translation>间隙的 %1 内没有 CANN 活动，且本次采集不含框架层（例如 MindSpore / GE 图模式）：Host 在做什么未被记录，无法判断原因</translation>
    </message>
    <message>
        <source>no torch op or runtime activity for %1 of the gap: Python work outside torch, data loading or GC</source>
        <translation>间隙的 %1 内没有 torch 算子或 Runtime 活动：torch 之外的 Python 工作、数据加载或 GC</translation>
    </message>
    <message>
        <source>no torch/CANN activity for %1 of the gap: Python work outside torch, data loading or GC</source>
        <translation>间隙的 %1 内没有 torch/CANN 活动：torch 之外的 Python 工作、数据加载或 GC</translation>
    </message>
    <message>
        <source>; Python GC ran for %1 of it</source>
        <translation>；其中 Python GC 运行了 %1</translation>
    </message>
    <message>
        <source>host partly busy (%1): no rule decides the cause</source>
        <translation>Host 部分忙碌（%1）：没有规则能判定原因</translation>
    </message>
    <message>
        <source>no torch op or launch</source>
        <translation>没有 torch 算子或下发</translation>
    </message>
    <message>
        <source>no launch</source>
        <translation>没有下发</translation>
    </message>
    <message>
        <source>only %1</source>
        <translation>只有 %1</translation>
    </message>
    <message>
        <source>torch op/launch</source>
        <translation>个 torch 算子/下发</translation>
    </message>
    <message>
        <source>torch ops/launches</source>
        <translation>个 torch 算子/下发</translation>
    </message>
    <message>
        <source>host busy %1 but %2 started in the gap: no rule decides the cause</source>
        <translation>Host 忙碌 %1，但间隙内开始的%2：没有规则能判定原因</translation>
    </message>
    <message>
        <source>; the gap ends at the collective %1</source>
        <translation>；间隙结束于集合通信 %1</translation>
    </message>
    <message>
        <source>warm-up: %1 covers %2 of the gap and is one of the first calls of %3, whose median call takes %4 (%5 calls): a one-off cost (autotuning, lazy initialisation, first-time compilation or allocation), not the steady state</source>
        <translation>预热：%1 覆盖了间隙的 %2，且是 %3 最初的几次调用之一，其调用耗时中位数为 %4（共 %5 次调用）：这是一次性开销（自动调优、延迟初始化、首次编译或内存分配），不是稳定状态</translation>
    </message>
    <message>
        <source>inside the collective %1, between its own tasks: the device waits for the other members of its group, not for the host (this export counts Communication from the HCCL tasks, so the gap is Free)</source>
        <translation>位于集合通信 %1 内部、其自身任务之间：Device 在等待通信组的其他成员，而不是在等 Host（该导出以 HCCL 任务计算通信时间，因此这段间隙计为空闲）</translation>
    </message>
    <message>
        <source>%1 was issued by %2, which ended %3 before the device went idle, and started only when the gap ended: the host was ahead, the delay is on the device side (the launch itself is not recorded: the runtime record sits at the kernel&apos;s own start)</source>
        <translation>%1 由 %2 下发，该算子在设备空闲前 %3 已结束，而 %1 直到空闲结束才开始执行：主机领先，延迟在设备侧（下发本身未被记录：运行时记录位于 kernel 自身的开始时刻）</translation>
    </message>
    <message>
        <source>no torch op or runtime activity for %1 of the gap, but when %2 was launched is not recorded (its runtime record sits at the kernel&apos;s own start and no op carries its External id): whether the device waited for the host cannot be told</source>
        <translation>空闲中 %1 的时间没有 torch 算子或运行时活动，但 %2 何时下发未被记录（其运行时记录位于 kernel 自身的开始时刻，且没有算子带有它的 External id）：无法判断设备是否在等待主机</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Chain</name>
    <message>
        <source>launch latency unknown</source>
        <translation>下发时延未知</translation>
    </message>
    <message>
        <source>launch latency unknown: the task starts %1 before its recorded launch even after the clock correction (a suspect flow binding)</source>
        <translation>下发时延未知：即使经过时钟校正，任务仍比记录的下发早 %1 开始（连线绑定可疑）</translation>
    </message>
    <message>
        <source>launch latency %1 (recorded %2; host/device clocks corrected by %3)</source>
        <translation>下发时延 %1（记录值 %2；Host/Device 时钟已校正 %3）</translation>
    </message>
    <message>
        <source>launch latency %1</source>
        <translation>下发时延 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Collectives</name>
    <message>
        <source>%1: HCCL group %2 paired with rank %3&apos;s group %4 by their order (the names differ)</source>
        <translation>%1：HCCL 通信组 %2 按顺序与 Rank %3 的通信组 %4 配对（两者名称不同）</translation>
    </message>
    <message>
        <source>%1 op(s) of other ranks have no counterpart on rank %2</source>
        <translation>其他 Rank 的 %1 个通信算子在 Rank %2 上没有对应的算子</translation>
    </message>
    <message>
        <source>%1: no collective shared with rank %2, clock offset not estimated</source>
        <translation>%1：与 Rank %2 没有共同的集合通信，未估计时钟偏移</translation>
    </message>
    <message>
        <source>%1: HCCL group %2 not compared with rank %3&apos;s group %4: both hold group rank %5, so they are different groups</source>
        <translation>%1：HCCL 通信组 %2 不与 Rank %3 的通信组 %4 比较：两者都是通信组内的 Rank %5，因此是不同的通信组</translation>
    </message>
    <message>
        <source>%1 point-to-point op(s) (send / receive) are not compared across ranks: they synchronise two ranks, not the group</source>
        <translation>%1 个点对点通信算子（send / receive）不做跨 Rank 比较：它们只同步两个 Rank，而不是整个通信组</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>group rank %1 (not captured)</source>
        <translation>通信组内 Rank %1（未采集）</translation>
    </message>
    <message>
        <source>%1 ranks share no collective with rank %2, directly or through other ranks: their clocks are compared only among the ranks they share collectives with</source>
        <translation>%1 个 Rank 与 Rank %2 没有共同的集合通信（直接或经由其他 Rank 都没有）：它们的时钟只在与之有共同集合通信的 Rank 之间比较</translation>
    </message>
    <message>
        <source>and %1 more ranks hold HCCL groups of their own (other names, group ranks taken in rank %2&apos;s): matched among themselves</source>
        <translation>另有 %1 个 Rank 属于各自的 HCCL 通信组（名称不同，且其组内 Rank 在 Rank %2 的通信组中已被占用）：在它们之间相互匹配</translation>
    </message>
    <message>
        <source>unknown (clocks disagree)</source>
        <translation>未知（时钟不一致）</translation>
    </message>
    <message>
        <source>HCCL group %1</source>
        <translation>HCCL 通信组 %1</translation>
    </message>
    <message>
        <source>the HCCL group on lane “%1”</source>
        <translation>泳道“%1”上的 HCCL 通信组</translation>
    </message>
    <message>
        <source>rank(s) %1: no HCCL op read (no trace, or none in it): not compared; who they wait for, or hold, cannot be told</source>
        <translation>Rank %1：未读到 HCCL 算子（没有 trace，或 trace 中没有）：未参与比较；它们在等谁、拖住了谁，无法判断</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Compare</name>
    <message>
        <source>rank %1: device time %2 (%3 -&gt; %4): %5 %6</source>
        <translation>Rank %1：Device 时间 %2（%3 -&gt; %4）：%5 %6</translation>
    </message>
    <message>
        <source>, mostly %1 bubbles %2</source>
        <translation>，主要是 %1 空泡 %2</translation>
    </message>
    <message>
        <source>; the operator type that changed most: %1 %2</source>
        <translation>；变化最大的算子类型：%1 %2</translation>
    </message>
    <message>
        <source>rank %1 is only in %2: not compared</source>
        <translation>Rank %1 只在 %2 中：未比较</translation>
    </message>
    <message>
        <source>no device analysis on one side: the figures are not compared</source>
        <translation>一侧没有 Device 分析：不比较这些数值</translation>
    </message>
    <message>
        <source>steps only in A: %1</source>
        <translation>只在 A 中的迭代：%1</translation>
    </message>
    <message>
        <source>steps only in B: %1</source>
        <translation>只在 B 中的迭代：%1</translation>
    </message>
    <message>
        <source>a side records no operator type (Level0): kernels are compared by name</source>
        <translation>一侧没有记录算子类型（Level0）：按 kernel 名称比较</translation>
    </message>
    <message>
        <source>only %1 has a kernel table: the operator rows show one side</source>
        <translation>只有 %1 有 kernel 表：算子行只显示一侧</translation>
    </message>
    <message>
        <source>nothing to compare: no rank id has a device analysis on both sides</source>
        <translation>无可比较：没有哪个 Rank 在两侧都有 Device 分析</translation>
    </message>
    <message>
        <source>no difference: every paired figure, step, operator type and bubble cause is the same within 1 us</source>
        <translation>没有差异：所有配对的数值、迭代、算子类型和空泡原因在 1 us 以内相同</translation>
    </message>
    <message>
        <source> (%1 ranks compared; this one changed most)</source>
        <translation>（比较了 %1 个 Rank；此 Rank 变化最大）</translation>
    </message>
    <message>
        <source>rank %1: the same device time (%2) and shares within 1 us</source>
        <translation>Rank %1：Device 时间相同（%2），各部分占比在 1 us 以内一致</translation>
    </message>
    <message>
        <source>%1 has no ProfilerStep: only the whole captures are compared</source>
        <translation>%1 没有 ProfilerStep：只比较整个采集</translation>
    </message>
    <message>
        <source>only %1&apos;s kernel table holds the communication ops (the .db export&apos;s has none): they are left out of the operator rows</source>
        <translation>只有 %1 的 kernel 表包含通信算子（.db 导出的没有）：算子行中不计入通信算子</translation>
    </message>
    <message>
        <source>a side records no input shapes: operators are compared by type only</source>
        <translation>一侧没有记录输入 shape：算子只按类型比较</translation>
    </message>
    <message>
        <source>one rank on each side: rank %1 of A paired with rank %2 of B</source>
        <translation>两侧各只有一个 Rank：A 的 Rank %1 与 B 的 Rank %2 配对</translation>
    </message>
    <message>
        <source>%1&apos;s %2 is a partial capture (%3): its figures cover only what was read</source>
        <translation>%1 的 %2 是不完整的采集（%3）：其数值只覆盖已读取的部分</translation>
    </message>
    <message>
        <source>%1 is a GPU trace and the other an Ascend capture: their operators and causes differ in kind</source>
        <translation>%1 是 GPU trace，另一侧是昇腾采集：两者的算子与原因类别不同</translation>
    </message>
    <message>
        <source> (a side is a partial capture: see the notes)</source>
        <translation>（有一侧是不完整的采集：见备注）</translation>
    </message>
    <message>
        <source>%1 is a summary: its kernel table&apos;s %2 shortest groups by type, name and input shapes are left out of the rows per shapes (the operator types are complete)</source>
        <translation>%1 是摘要：其算子表中按类型、名称和输入形状分组最短的 %2 组未计入按形状的行（算子类型是完整的）</translation>
    </message>
    <message>
        <source>the captures were taken with other profiler settings: %1 is %2 in A and %3 in B (profiler_info); a change that this setting explains is not the run&apos;s</source>
        <translation>两次采集使用了不同的 profiler 设置：%1 在 A 中为 %2，在 B 中为 %3（profiler_info）；能由该设置解释的变化不属于运行本身</translation>
    </message>
    <message>
        <source> (the captures&apos; profiler settings differ: see the notes before reading a change as the run&apos;s)</source>
        <translation>（两次采集的 profiler 设置不同：在把某个变化归因于运行本身之前，请先查看说明）</translation>
    </message>
    <message>
        <source>%1 is Level0, which records no CANN layer</source>
        <translation>%1 为 Level0，不采集 CANN 层</translation>
    </message>
    <message>
        <source>bubble causes are not compared: %1, so its gaps cannot have CANN causes (aclop_*) and take others</source>
        <translation>不比较空闲成因：%1，其空闲不可能归因于 CANN 层（aclop_*），而归入其他成因</translation>
    </message>
    <message>
        <source> [not comparable: %1]</source>
        <translation> [不可比较：%1]</translation>
    </message>
    <message>
        <source>%1&apos;s figures are computed from its tasks and differ from its own records: %2%3</source>
        <translation>%1 的数据由其任务计算，与其自身记录不一致：%2%3</translation>
    </message>
    <message>
        <source> (and %1 more)</source>
        <translation>（另有 %1 处）</translation>
    </message>
    <message>
        <source> (computed from the tasks; a side&apos;s own records differ: see the notes)</source>
        <translation>（由任务计算；有一侧的自身记录不一致：见说明）</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Html</name>
    <message>
        <source>Computing</source>
        <translation>计算 (Computing)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped)</source>
        <translation>未被掩盖的通信 (Communication Not Overlapped)</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲 (Free)</translation>
    </message>
    <message>
        <source>Written by npuscope %1 on %2.</source>
        <translation>由 npuscope %1 于 %2 生成。</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Computing (ms)</source>
        <translation>计算 (ms)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped) (ms)</source>
        <translation>未被掩盖的通信 (ms)</translation>
    </message>
    <message>
        <source>Free (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Device time (ms)</source>
        <translation>Device 时间 (ms)</translation>
    </message>
    <message>
        <source>Shares</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>Bubbles: %1 device idle gaps of 10 us or more, %2 ms in all; the longest</source>
        <translation>空泡：%1 个 10 us 及以上的 Device 空闲间隙，共 %2 ms；最长的几个</translation>
    </message>
    <message>
        <source>Duration (us)</source>
        <translation>时长 (us)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Task that ends it</source>
        <translation>结束它的任务</translation>
    </message>
    <message>
        <source>Dispatch chain</source>
        <translation>下发链</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>优化建议</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>At stake per step</source>
        <translation>每迭代可节省</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Ranks compared</source>
        <translation>各 Rank 对比</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Collectives (the 20 with the most time lost)</source>
        <translation>集合通信（损失时间最多的 20 个）</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Largest skew (us)</source>
        <translation>最大偏差 (us)</translation>
    </message>
    <message>
        <source>Performance report: %1</source>
        <translation>性能报告：%1</translation>
    </message>
    <message>
        <source>no analysis</source>
        <translation>无分析结果</translation>
    </message>
    <message>
        <source>Device %1: where the device time goes</source>
        <translation>Device %1：Device 时间花在哪里</translation>
    </message>
    <message>
        <source>Two captures compared</source>
        <translation>两个采集对比</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>Device 时间</translation>
    </message>
    <message>
        <source>Operator types that changed most</source>
        <translation>变化最大的算子类型</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Calls A / B</source>
        <translation>调用次数 A / B</translation>
    </message>
    <message>
        <source>Bubble time per cause</source>
        <translation>各原因的空泡时间</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>拖慢者</translation>
    </message>
    <message>
        <source>Lost waiting for it (us)</source>
        <translation>因等待它的损失 (us)</translation>
    </message>
    <message>
        <source>From its summary, made on %1 from %2</source>
        <translation>来自其摘要，生成于 %1，源目录 %2</translation>
    </message>
</context>
<context>
    <name>npuscope::core::I18n</name>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Overlap</name>
    <message>
        <source>no Ascend Hardware lanes: no device analysis</source>
        <translation>没有 Ascend Hardware 泳道：不做 Device 分析</translation>
    </message>
    <message>
        <source>Kineto trace without kernel, gpu_memcpy or gpu_memset events: it holds CUPTI range-profiler records (cuda_profiler_range), kernels replayed one at a time to read their counters, whose times are the replays and not the kernels&apos; timeline: no device analysis</source>
        <translation>Kineto Trace 中没有 kernel、gpu_memcpy 或 gpu_memset 事件：它包含 CUPTI range-profiler 记录（cuda_profiler_range），即为读取计数器而逐个重放的 kernel，其时间是重放的时间而非 kernel 的时间线：不做 Device 分析</translation>
    </message>
    <message>
        <source>Kineto trace without kernel, gpu_memcpy or gpu_memset events on a device stream: no device analysis</source>
        <translation>Kineto Trace 的 Device 流上没有 kernel、gpu_memcpy 或 gpu_memset 事件：不做 Device 分析</translation>
    </message>
    <message>
        <source>kernel_details.csv does not match this trace (none of its %1 distinct compute start times is a device task&apos;s start), so: %2</source>
        <translation>kernel_details.csv 与此 Trace 不匹配（其 %1 个不同的计算开始时间都不是 Device 任务的开始时间），因此改用：%2</translation>
    </message>
    <message>
        <source>Kineto trace: cat kernel, except collective kernels (nccl/rccl/hccl in the name, hcom_*); gpu_memcpy/gpu_memset are copies, not compute</source>
        <translation>Kineto Trace：cat 为 kernel 的事件，集合通信 kernel 除外（名称含 nccl/rccl/hccl，hcom_*）；gpu_memcpy/gpu_memset 是拷贝，不算计算</translation>
    </message>
    <message>
        <source>kernel_details.csv (%1 matched by start time)</source>
        <translation>kernel_details.csv（按开始时间匹配了 %1）</translation>
    </message>
    <message>
        <source>task</source>
        <translation>个任务</translation>
    </message>
    <message>
        <source>tasks</source>
        <translation>个任务</translation>
    </message>
    <message>
        <source>Task Type AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE, and Other-typed tasks not named like memcpy/event/notify tasks</source>
        <translation>Task Type 为 AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE 的任务，以及名称不像 memcpy/event/notify 任务的 Other 类型任务</translation>
    </message>
    <message>
        <source>%1: computed %2, recorded %3 (difference %4)</source>
        <translation>%1：计算值 %2，记录值 %3（相差 %4）</translation>
    </message>
    <message>
        <source>(all)</source>
        <translation>（全部）</translation>
    </message>
    <message>
        <source>Overlap Analysis lanes</source>
        <translation>Overlap Analysis 泳道</translation>
    </message>
    <message>
        <source>computed</source>
        <translation>计算值</translation>
    </message>
    <message>
        <source>device %1: %2</source>
        <translation>Device %1：%2</translation>
    </message>
    <message>
        <source>step %1 %2: %3 %4, %5 %6</source>
        <translation>Step %1 %2：%3 %4，%5 %6</translation>
    </message>
</context>
<context>
    <name>npuscope::core::ProfileAnalysis</name>
    <message>
        <source>%1: no device figures, left out of the cross-rank comparison</source>
        <translation>%1：没有 Device 数据，未参与跨 Rank 比较</translation>
    </message>
    <message>
        <source>the ranks&apos; figures come from different sources (see each rank&apos;s source)</source>
        <translation>各 Rank 的数据来源不同（见每个 Rank 的 source）</translation>
    </message>
    <message>
        <source>slow rank (msprof-analyze rule): needs 2 or more ranks with figures, %1 here</source>
        <translation>慢 Rank（msprof-analyze 规则）：需要 2 个及以上有数据的 Rank，这里只有 %1 个</translation>
    </message>
    <message>
        <source>slow rank (msprof-analyze rule, %1, threshold %2 of the mean rank time): </source>
        <translation>慢 Rank（msprof-analyze 规则，%1，阈值为 Rank 平均时间的 %2）：</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>个 Rank</translation>
    </message>
    <message>
        <source>ranks</source>
        <translation>个 Rank</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source> and %1 more ranks</source>
        <translation>，以及另外 %1 个 Rank</translation>
    </message>
    <message>
        <source>it ends the previous collective later</source>
        <translation>它更晚结束上一个集合通信</translation>
    </message>
    <message>
        <source>it begins step %1 on the host later (ProfilerStep: data loading, the previous step&apos;s host work)</source>
        <translation>它在 Host 上更晚开始 Step %1（ProfilerStep：数据加载、上一个 Step 的 Host 侧工作）</translation>
    </message>
    <message>
        <source>its first device task of the step starts later after that</source>
        <translation>此后它在该 Step 的第一个 Device 任务开始得更晚</translation>
    </message>
    <message>
        <source>its device begins the step later</source>
        <translation>它的 Device 更晚开始该 Step</translation>
    </message>
    <message>
        <source>its device sits idle (Free) longer: its host launches work late (see its bubbles)</source>
        <translation>它的 Device 空闲（Free）更久：它的 Host 下发工作较晚（查看它的空泡）</translation>
    </message>
    <message>
        <source>it computes longer (compare its kernels)</source>
        <translation>它的计算时间更长（对比它的 kernel）</translation>
    </message>
    <message>
        <source>its other exposed communication is longer</source>
        <translation>它的其他未掩盖通信更长</translation>
    </message>
    <message>
        <source>Against %1 (%2), %3 is late because: %4. </source>
        <translation>%2，与 %1 相比，%3 晚到的原因：%4。</translation>
    </message>
    <message>
        <source>since the previous collective</source>
        <translation>自上一个集合通信结束起算</translation>
    </message>
    <message>
        <source>from the step&apos;s start</source>
        <translation>自 Step 开始起算</translation>
    </message>
    <message>
        <source>no part of 50 us or more</source>
        <translation>没有哪一部分达到 50 us</translation>
    </message>
    <message>
        <source>The first of these explains most of the delay.</source>
        <translation>其中第一项解释了大部分延迟。</translation>
    </message>
    <message>
        <source>No single part explains most of the delay.</source>
        <translation>没有哪一项能单独解释大部分延迟。</translation>
    </message>
    <message>
        <source>About as late: %1. </source>
        <translation>差不多同样晚到的还有：%1。</translation>
    </message>
    <message>
        <source> in step %1</source>
        <translation>（Step %1）</translation>
    </message>
    <message>
        <source>%1 waits %2</source>
        <translation>%1 等待 %2</translation>
    </message>
    <message>
        <source> (its synchronization %1)</source>
        <translation>（其同步 %1）</translation>
    </message>
    <message>
        <source>one clock assumed: the op ends show no offset</source>
        <translation>假定时钟一致：通信算子的结束时间没有显示出偏移</translation>
    </message>
    <message>
        <source>clock offset %1 applied, from %2 op ends</source>
        <translation>已按 %2 个通信算子的结束时间校正时钟偏移 %1</translation>
    </message>
    <message>
        <source>%1 is late to %2 of %3 collectives; the other ranks wait %4 in all for it. Worst: it reaches %5%6 %7 after the first rank (%8); %9. </source>
        <translation>%1 在 %3 个集合通信中有 %2 个晚到；其他 Rank 总共等待它 %4。最严重的一次：在 %5%6，它比最早的 Rank 晚 %7 到达（%8）；%9。</translation>
    </message>
    <message>
        <source>Inside the collectives the ranks also wait for %1: %2 in all, worst in %3%4 (%5). The profiler counts this as Idle, not Synchronization: that peer has not arrived yet (late or slow). %6</source>
        <translation>在集合通信内部，各 Rank 还在等待 %1：共 %2，最严重的是 %3%4：%5。Profiler 把这段时间计为 Idle，而不是 Synchronization：该对端尚未到达（晚到或较慢）。%6</translation>
    </message>
    <message>
        <source>Look at %1.</source>
        <translation>请查看 %1。</translation>
    </message>
    <message>
        <source>Capture that rank too to see why it is late.</source>
        <translation>请把该 Rank 也一并采集，以查看它晚到的原因。</translation>
    </message>
    <message>
        <source>The slowest link is %1 to group rank %2 over %3: %4 of its nominal %5 (%6 in %7). Below 80% a link is slow: check it, and contention with compute.</source>
        <translation>最慢的链路是 %1 经 %3 到通信组内 Rank %2：%4（相对标称带宽 %5），%7 内传输 %6。低于 80% 的链路偏慢：请检查该链路，以及它与计算的争用。</translation>
    </message>
    <message>
        <source>msprof-analyze&apos;s slow-rank rule names the rank with the most Communication(Not Overlapped), %1: that is the rank that waits, not the late one (%2).</source>
        <translation>msprof-analyze 的慢 Rank 规则指出的是未掩盖通信（Communication(Not Overlapped)）最多的 Rank，即 %1：它是在等待的 Rank，而不是晚到的 Rank（%2）。</translation>
    </message>
    <message>
        <source>This rank holds the others back at the collectives: look at what it does before them (compute, dispatch, data loading) and compare with the other ranks.</source>
        <translation>该 Rank 在集合通信处拖慢了其他 Rank：查看它在集合通信之前做了什么（计算、下发、数据加载），并与其他 Rank 对比。</translation>
    </message>
    <message>
        <source>This rank mostly waits for %1 at the collectives: look at %1 first, then at overlapping communication with computation.</source>
        <translation>该 Rank 在集合通信处主要在等待 %1：先查看 %1，再考虑让通信与计算相互掩盖。</translation>
    </message>
    <message>
        <source>; collectives (%1 matched): no rank late</source>
        <translation>；集合通信（匹配 %1 个）：没有晚到的 Rank</translation>
    </message>
    <message>
        <source>; collectives (%1 matched): rank %2 late to %3 (the others wait %4 for it; it is the late rank, whatever the rule above names)</source>
        <translation>；集合通信（匹配 %1 个）：Rank %2 在其中 %3 个晚到（其他 Rank 共等待它 %4；无论上面的规则指向哪个 Rank，晚到的都是它）</translation>
    </message>
    <message>
        <source> The capture has no HCCL plane tasks (Level0): whether a rank outside the capture arrives later still, and so holds the collective instead, cannot be told.</source>
        <translation>本次采集没有 HCCL Plane 任务（Level0）：无法判断是否有采集范围之外的 Rank 到得更晚、因而才是拖住这次集合通信的那个。</translation>
    </message>
    <message>
        <source>Group ranks %1 arrive about as late. </source>
        <translation>通信组内 Rank %1 也几乎同样晚到。</translation>
    </message>
    <message>
        <source>Capture that rank too (or every rank of the group) to see why it is late.</source>
        <translation>请同时采集该 Rank（或整个通信组的所有 Rank），以查明它晚到的原因。</translation>
    </message>
    <message>
        <source>%1, the last loaded rank</source>
        <translation>%1（最后到达的已加载 Rank）</translation>
    </message>
    <message>
        <source>group rank %1 (not in this capture), %2 after the last loaded rank</source>
        <translation>通信组内 Rank %1（不在本次采集中），比最后到达的已加载 Rank 晚 %2</translation>
    </message>
    <message>
        <source>No rank is late: the ranks reach every collective within %1 of each other (largest skew %2, %3); arrivals closer than that are not judged.</source>
        <translation>没有晚到的 Rank：各 Rank 到达每个集合通信的时间相差都在 %1 以内（最大偏差 %2，%3）；小于该阈值的先后不做判断。</translation>
    </message>
    <message>
        <source>msprof-analyze&apos;s slow-rank rule names the rank with the most Communication(Not Overlapped), %1: that is a rank that waits; the ranks wait for %2.</source>
        <translation>msprof-analyze 的慢卡规则指出的是 Communication(Not Overlapped) 最多的 %1：它是在等待的 Rank；各 Rank 等待的是%2。</translation>
    </message>
    <message>
        <source>The ranks mostly wait for %1: capture it (or every rank of the group) to see what delays it.</source>
        <translation>各 Rank 主要在等待%1：请采集它（或整个通信组的所有 Rank），以查明是什么拖慢了它。</translation>
    </message>
    <message>
        <source>group rank %1 of %2, which is not in this capture</source>
        <translation>%2 的通信组内 Rank %1（不在本次采集中）</translation>
    </message>
    <message>
        <source>Group rank %1, not in this capture, arrives about as late (which of the two is last cannot be told). </source>
        <translation>通信组内 Rank %1（不在本次采集中）几乎同样晚到（二者谁最后到无法判断）。</translation>
    </message>
    <message>
        <source>Group ranks %1, not in this capture, arrive about as late (which of them is last cannot be told). </source>
        <translation>通信组内 Rank %1（不在本次采集中）几乎同样晚到（其中谁最后到无法判断）。</translation>
    </message>
    <message>
        <source>the latest member the capture sees arrive is %1, yet its op lasts %2 where moving its %3 elements takes about %4 at that rank&apos;s best rate in this group: it is held %5 inside the op by a member the capture does not hold, a slow link, or the group&apos;s first-op link setup (without plane tasks, Level0, the data cannot tell which). </source>
        <translation>采集中能看到的最后到达的成员是 %1，但它的算子持续 %2，而按该 Rank 在此通信组中的最佳速率，搬运其 %3 个元素只需约 %4：它在算子内被拖住 %5，原因可能是采集外的成员、慢链路或通信组首个算子的建链（没有 Plane 任务，即 Level0，数据无法区分）。</translation>
    </message>
    <message>
        <source>the latest member the capture sees arrive is %1, yet %2 is still held %3 after that: a member its plane tasks do not show (each rank of a ring sees only its neighbours) arrives later still, or a link is slow. </source>
        <translation>采集中能看到的最后到达的成员是 %1，但 %2 在此之后仍被拖住 %3：有一个其 plane 任务看不到的成员（环上每个 Rank 只看到邻居）到得更晚，或链路较慢。</translation>
    </message>
    <message>
        <source>In %1 of %2 collectives the holder cannot be told. Worst, %3%4: %5</source>
        <translation>%2 个集合通信中有 %1 个无法判断拖慢者。最严重的是 %3%4:%5</translation>
    </message>
    <message>
        <source>In these the loaded ranks wait at least %1 in all (to the latest arrival seen). </source>
        <translation>在这些集合通信中，已加载的 Rank 至少共等待 %1（算到能看到的最晚到达）。</translation>
    </message>
    <message>
        <source>Capture every rank of the group, with plane tasks (Level1), to name the holder.</source>
        <translation>请采集该通信组的所有 Rank，并带 plane 任务（Level1），才能确定拖慢者。</translation>
    </message>
    <message>
        <source>Capture every rank of the group to name the holder.</source>
        <translation>请采集该通信组的所有 Rank，才能确定拖慢者。</translation>
    </message>
    <message>
        <source>In %1 of %2 collectives the starts and the waits disagree. Worst, %3%4: the starts put %5 last, %6 after the first rank, yet %7&apos;s first wait on it ends %8 before that arrival. The ranks&apos; clocks differ by more than the op ends could establish, so who holds it cannot be told: look at the clock offsets (Cluster dock) before trusting any rank&apos;s lateness.</source>
        <translation>%2 个集合通信中有 %1 个的起点与等待相互矛盾。最严重的是 %3%4：按起点 %5 最后到达，比第一个 Rank 晚 %6，但 %7 对它的首次等待在这次到达之前 %8 就已结束。各 Rank 的时钟偏差超出了算子结束时间所能校准的范围，因此无法判断拖慢者：在相信任何 Rank 的迟到之前，请先查看时钟偏移（集群面板）。</translation>
    </message>
    <message>
        <source>The ranks wait most (at least %1) in collectives whose holder cannot be told: capture every rank of the group, with plane tasks (Level1), to name who holds them.</source>
        <translation>各 Rank 等待最多的（至少 %1）是无法判断拖慢者的集合通信：请采集该通信组的所有 Rank 并带 plane 任务（Level1），以确定拖慢者。</translation>
    </message>
    <message>
        <source>The ranks wait most (at least %1) in collectives whose holder cannot be told: capture every rank of the group to name who holds them.</source>
        <translation>各 Rank 等待最多的（至少 %1）是无法判断拖慢者的集合通信：请采集该通信组的所有 Rank，以确定拖慢者。</translation>
    </message>
    <message>
        <source>; collectives (%1 matched): the holder cannot be told in %2, where the loaded ranks wait most (at least %3)</source>
        <translation>；集合通信（匹配 %1 个）：其中 %2 个无法判断拖慢者，已加载的 Rank 在这些上等待最多（至少 %3）</translation>
    </message>
    <message>
        <source>; collectives (%1 matched): group rank %2 of %3, not captured, holds %4 (the loaded ranks wait %5 for it)</source>
        <translation>；集合通信（匹配 %1 个）：%3 的通信组内 Rank %2（未采集）拖住了 %4 个（已加载的 Rank 共等它 %5）</translation>
    </message>
    <message>
        <source>; collectives (%1 matched): no loaded rank late; in %2 the holder cannot be told</source>
        <translation>；集合通信（匹配 %1 个）：没有已加载的 Rank 迟到；其中 %2 个无法判断拖慢者</translation>
    </message>
    <message>
        <source>the rank without a rank id</source>
        <translation>没有 Rank 编号的那个 Rank</translation>
    </message>
    <message>
        <source>Group rank %1 of %2, which is not in this capture, holds %3 of %4 collectives of its group; %5 waits %6 in all for it. </source>
        <translation>%2 的通信组内 Rank %1 不在本次采集中，它拖住了该通信组 %4 个集合通信中的 %3 个；%5 共等它 %6。</translation>
    </message>
    <message>
        <source>Group rank %1 of %2, which is not in this capture, holds %3 of %4 collectives of its group; the loaded ranks wait %6 in all for it. </source>
        <translation>%2 的通信组内 Rank %1 不在本次采集中，它拖住了该通信组 %4 个集合通信中的 %3 个；已加载的 Rank 共等它 %6。</translation>
    </message>
    <message>
        <source>Worst, %1%2: it arrives %3 after %4 (whose first wait on it ends then)</source>
        <translation>最严重的是 %1%2：它比 %4 晚到 %3（%4 对它的首次等待在那时结束）</translation>
    </message>
    <message>
        <source>Worst, %1%2: it arrives %3 after the last loaded rank (the loaded ranks&apos; first waits on it end then)</source>
        <translation>最严重的是 %1%2：它比最后到达的已加载 Rank 晚到 %3（已加载 Rank 对它的首次等待在那时结束）</translation>
    </message>
    <message>
        <source>Rank %1 reaches it %2 after %3, which costs nothing: group rank %4 arrives %5 later still. </source>
        <translation>Rank %1 比 %3 晚 %2 到达，但这并不造成损失：通信组内 Rank %4 还要再晚 %5 才到。</translation>
    </message>
    <message>
        <source>%1, the only loaded rank</source>
        <translation>%1（唯一已加载的 Rank）</translation>
    </message>
    <message>
        <source>; collectives (%1, one loaded rank each): group rank %2 of %3, not captured, holds %4 (waited for %5 in all)</source>
        <translation>；集合通信（%1 个，每个只有一个已加载 Rank）：%3 的通信组内 Rank %2（未采集）拖住了 %4 个（共被等待 %5）</translation>
    </message>
    <message>
        <source>; collectives (%1, one loaded rank each): in %2 the holder cannot be told</source>
        <translation>；集合通信（%1 个，每个只有一个已加载 Rank）：其中 %2 个无法判断拖慢者</translation>
    </message>
    <message>
        <source>; collectives (%1, one loaded rank each, no plane tasks): who arrives last cannot be told</source>
        <translation>；集合通信（%1 个，每个只有一个已加载 Rank，且没有 plane 任务）：无法判断谁最后到达</translation>
    </message>
    <message>
        <source>; collectives (%1, one loaded rank each): no member seen late</source>
        <translation>；集合通信（%1 个，每个只有一个已加载 Rank）：未看到有成员迟到</translation>
    </message>
    <message>
        <source>. </source>
        <translation>。</translation>
    </message>
    <message>
        <source>In %1 of %2 collectives no member the capture sees arrives %3 or more after another: those are not judged (closer arrivals are within the clocks&apos; noise).</source>
        <translation>%2 个集合通信中有 %1 个，采集中能看到的成员之间到达时间相差都不到 %3：这些不作判断（更小的差值在时钟误差之内）。</translation>
    </message>
    <message>
        <source>, %1 after group rank %2 (not in this capture either), the member before it</source>
        <translation>，比在它之前到达的通信组内 Rank %2（同样不在本次采集中）晚 %1</translation>
    </message>
    <message>
        <source>In these the loaded rank waits at least %1 in all (to the latest arrival seen). </source>
        <translation>在这些集合通信中，已加载的 Rank 至少共等待 %1（算到能看到的最晚到达）。</translation>
    </message>
    <message>
        <source>In %1 of %2 collectives the one loaded rank sees no member arrive after it (its first waits end at once, and nothing holds it later): it may be the last to arrive, but how much earlier the others came cannot be told from one rank.</source>
        <translation>%2 个集合通信中有 %1 个，唯一已加载的 Rank 没有看到任何成员比它晚到（它的首次等待立即结束，之后也没有被拖住）：它可能是最后到达的，但仅凭一个 Rank 无法判断其他成员早到了多少。</translation>
    </message>
    <message>
        <source>In %1 of %2 collectives who arrives last cannot be told: one loaded rank without plane tasks (Level0).</source>
        <translation>%2 个集合通信中有 %1 个无法判断谁最后到达：只有一个已加载的 Rank，且没有 plane 任务（Level0）。</translation>
    </message>
    <message>
        <source>This rank mostly waits for %1: capture it (or every rank of the group) to see what delays it.</source>
        <translation>该 Rank 主要在等待 %1：请同时采集它（或整个通信组的所有 Rank），以查明是什么拖慢了它。</translation>
    </message>
    <message>
        <source>the pipeline stages of profiler_metadata.json do not hold every rank: the slow-rank rule compares all ranks, across stages</source>
        <translation>profiler_metadata.json 中的流水线阶段未包含所有 Rank：慢 Rank 规则跨阶段比较全部 Rank</translation>
    </message>
    <message>
        <source>slow rank (msprof-analyze rule): needs 2 or more ranks with figures in one pipeline stage, none of the %1 stages has</source>
        <translation>慢 Rank（msprof-analyze 规则）：同一流水线阶段内需要 2 个或更多有数据的 Rank，%1 个阶段中都没有</translation>
    </message>
    <message>
        <source>slow rank (msprof-analyze rule, %1 compared within each of %2 pipeline stages, threshold %3 of the stage&apos;s mean rank time): </source>
        <translation>慢 Rank（msprof-analyze 规则，%1 在 %2 个流水线阶段内分别比较，阈值为该阶段 Rank 平均时间的 %3）：</translation>
    </message>
    <message>
        <source>max on rank %1, stage %2: ranks %3</source>
        <translation>最大值在 Rank %1，阶段 %2：Rank %3</translation>
    </message>
    <message>
        <source>max on rank %1</source>
        <translation>最大值在 Rank %1</translation>
    </message>
    <message>
        <source>no bottleneck; largest gap %1 %2 (%3)</source>
        <translation>无瓶颈；最大差距 %1 %2（%3）</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source> These ranks have no trace: their ops are communication.json&apos;s records, without plane tasks; whether a rank outside the capture arrives later still, and so holds the collective instead, cannot be told.</source>
        <translation>这些 Rank 没有 trace：它们的算子来自 communication.json 的记录，没有 Plane 任务；无法判断是否有采集范围之外的 Rank 到得更晚、因而才是拖住这次集合通信的那个。</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Report</name>
    <message>
        <source>every step (%1 of %2)</source>
        <translation>每个 Step（%1/%2）</translation>
    </message>
    <message>
        <source>in %1 of %2</source>
        <translation>%2 中的 %1 个</translation>
    </message>
    <message>
        <source>step</source>
        <translation>个 Step</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>个 Step</translation>
    </message>
    <message>
        <source>chip %1</source>
        <translation>芯片 %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>advice (%1, %2; issues first, by time at stake per step):</source>
        <translation>优化建议（%1，%2；问题在前，按每 Step 可节省的时间排序）：</translation>
    </message>
    <message>
        <source> - %1 per step at stake</source>
        <translation> - 每 Step 可节省 %1</translation>
    </message>
    <message>
        <source>: %1 (mark: %2)</source>
        <translation>：%1（界线：%2）</translation>
    </message>
    <message>
        <source>fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>advice across ranks (each issue, on which ranks):</source>
        <translation>跨 Rank 的优化建议（每个问题出现在哪些 Rank 上）：</translation>
    </message>
    <message>
        <source>every rank (%1)</source>
        <translation>所有 Rank（%1）</translation>
    </message>
    <message>
        <source>%1 of %2 (%3)</source>
        <translation>%2 中的 %1 个（%3）</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>个 Rank</translation>
    </message>
    <message>
        <source>ranks</source>
        <translation>个 Rank</translation>
    </message>
    <message>
        <source>PARTIAL CAPTURE: %1; every figure below covers only the part read</source>
        <translation>不完整的采集：%1；以下所有数据只覆盖已读取的部分</translation>
    </message>
    <message>
        <source>bubbles &gt;= threshold: %1 (%2 in all), the longest %3 listed, longest first</source>
        <translation>达到阈值的空泡：%1 个（共 %2），列出最长的 %3 个，按时长从长到短</translation>
    </message>
    <message>
        <source>bubbles &gt;= threshold: %1 (longest first)</source>
        <translation>达到阈值的空泡：%1 个（按时长从长到短）</translation>
    </message>
    <message>
        <source>%1 at +%2 (step %3): %4</source>
        <translation>%1，位于 +%2（Step %3）：%4</translation>
    </message>
    <message>
        <source>%1 at +%2: %4</source>
        <translation>%1，位于 +%2：%4</translation>
    </message>
    <message>
        <source>launched after the device went idle</source>
        <translation>在 Device 空闲之后才下发</translation>
    </message>
    <message>
        <source>launched before the device went idle</source>
        <translation>在 Device 空闲之前已下发</translation>
    </message>
    <message>
        <source>launched at an unknown time</source>
        <translation>下发时间未知</translation>
    </message>
    <message>
        <source> - %1 per step at stake (%2)</source>
        <translation> - 每 Step 可节省 %1（%2）</translation>
    </message>
    <message>
        <source>collectives:</source>
        <translation>集合通信：</translation>
    </message>
    <message>
        <source>verdict: %1</source>
        <translation>结论：%1</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Stats</name>
    <message>
        <source>Task Type AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE, and untyped tasks not named like memcpy/event/notify/SDMA/hcom tasks</source>
        <translation>Task Type 为 AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE 的任务，以及名称不像 memcpy/event/notify/SDMA/hcom 任务的无类型任务</translation>
    </message>
    <message>
        <source>kernel_details.csv (its compute rows, matched to tasks by start time and name)</source>
        <translation>kernel_details.csv（其计算行按开始时间和名称与任务匹配）</translation>
    </message>
    <message>
        <source>kernel_details.csv does not match this trace (no compute row has a task&apos;s start and name), so: %1</source>
        <translation>kernel_details.csv 与此 Trace 不匹配（没有计算行与任务的开始时间和名称相符），因此改用：%1</translation>
    </message>
    <message>
        <source>kernel_details.csv alone (the profiler&apos;s own table: this rank has no trace), %1 without the communication rows</source>
        <translation>仅 kernel_details.csv（Profiler 自己的表：此 Rank 没有 Trace），%1，不含通信行</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>, %1 without a Duration left out</source>
        <translation>，略去了 %1没有 Duration 的数据</translation>
    </message>
    <message>
        <source>Share: %% of E2E %1 (Computing + Communication(Not Overlapped) + Free; those three add up to 100%%)</source>
        <translation>占比：占 E2E %1 的 %%（计算 + 未掩盖通信 + 空闲；三者相加为 100%%）</translation>
    </message>
    <message>
        <source>Share: %% of the layer&apos;s summed total %1 (the rows add up to 100%%)</source>
        <translation>占比：占该层总和 %1 的 %%（各行相加为 100%%）</translation>
    </message>
    <message>
        <source>Kernels told from stream tasks by %1</source>
        <translation>从流任务中区分 kernel 的依据：%1</translation>
    </message>
    <message>
        <source>%1 statistics, scope %2 (%3): %4 slices, sum %5, union %6</source>
        <translation>%1 统计，范围 %2（%3）：%4 个切片，总和 %5，并集 %6</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Tree</name>
    <message>
        <source>%1: a matrix operator whose FLOPs the recorded shapes do not give (Level0 has no shapes: capture at Level1 with record_shapes)</source>
        <translation>%1：记录的 shape 无法给出该矩阵类算子的 FLOPs（Level0 不含 shape：请用 Level1 并开启 record_shapes 采集）</translation>
    </message>
    <message>
        <source> (channels padded to C0: an upper bound)</source>
        <translation>（通道数按补齐到 C0 计算：为上界）</translation>
    </message>
    <message>
        <source>; Block Dim %1 of %2 cores: too small to fill the chip</source>
        <translation>；Block Dim 为 %1，核数 %2：规模太小，无法占满芯片</translation>
    </message>
    <message>
        <source>%1 reaches %2 TFLOPS%3, %4 of the %5 TFLOPS %6 peak%7</source>
        <translation>%1 达到 %2 TFLOPS%3，为 %5 TFLOPS %6 峰值的 %4%7</translation>
    </message>
    <message>
        <source>Below half the peak: a larger batch (bigger matrices fill the cores) or AMP (FP16/BF16, about 4x the FP32 peak).</source>
        <translation>低于峰值的一半：增大 batch size（更大的矩阵才能占满计算核），或使用 AMP（FP16/BF16，峰值约为 FP32 的 4 倍）。</translation>
    </message>
    <message>
        <source>; HF32 eligibility is not recorded: if it ran in HF32 its peak is higher, so &quot;already fast&quot; cannot be said</source>
        <translation>；未记录是否可用 HF32：若以 HF32 运行，其峰值更高，因此不能断言“已经很快”</translation>
    </message>
    <message>
        <source>Check whether it runs in HF32 (torch.npu.matmul.allow_hf32).</source>
        <translation>请确认它是否以 HF32 运行（torch.npu.matmul.allow_hf32）。</translation>
    </message>
    <message>
        <source>Already fast: look at the next operator.</source>
        <translation>已经很快：看下一个算子。</translation>
    </message>
    <message>
        <source>Between the marks and too small to fill the chip: a larger batch.</source>
        <translation>介于两条标线之间且规模太小、占不满芯片：增大 batch size。</translation>
    </message>
    <message>
        <source>Between the marks: AMP (FP16/BF16) if precision allows.</source>
        <translation>介于两条标线之间：精度允许时使用 AMP（FP16/BF16）。</translation>
    </message>
    <message>
        <source>%1 runs on AI_CPU (kernel %2): the operator fell back to the CPU, %3 calls, %4 in all (%5 of Computing)</source>
        <translation>%1 运行在 AI_CPU 上（kernel %2）：该算子回退到了 CPU，共 %3 次调用，合计 %4（占 Computing 的 %5）</translation>
    </message>
    <message>
        <source>Find why it has no AI Core kernel (its dtype or shape, e.g. int64 or a dynamic shape) and change the input, or replace the op by one with an NPU kernel.</source>
        <translation>查明它为何没有 AI Core 实现（数据类型或 shape，例如 int64 或动态 shape）并修改输入，或换用有 NPU 实现的算子。</translation>
    </message>
    <message>
        <source>%1: %2 host/device transfers, %3 in all</source>
        <translation>%1：%2 次 Host/Device 传输，合计 %3</translation>
    </message>
    <message>
        <source>Keep the data on the device: remove .cpu() / .item() / .to(&apos;cpu&apos;) from the step.</source>
        <translation>让数据留在 Device 上：从迭代中去掉 .cpu() / .item() / .to(&apos;cpu&apos;)。</translation>
    </message>
    <message>
        <source>%1: %2 calls per step of %3 on average (%4 of Computing): short and many</source>
        <translation>%1：每个迭代 %2 次调用，平均 %3（占 Computing 的 %4）：单个耗时短但数量多</translation>
    </message>
    <message>
        <source>Fuse them: a fused torch_npu API, or graph mode (torch.compile / TorchAir) so that the compiler merges them.</source>
        <translation>进行算子融合：使用 torch_npu 的融合 API，或使用图模式（torch.compile / TorchAir）让编译器自动合并。</translation>
    </message>
    <message>
        <source>, moves %1 GB/s</source>
        <translation>，搬运 %1 GB/s</translation>
    </message>
    <message>
        <source>, %1 by its pipe ratios</source>
        <translation>，按流水线占比为 %1</translation>
    </message>
    <message>
        <source>, %1-bound (%2)</source>
        <translation>，%1 受限（%2）</translation>
    </message>
    <message>
        <source>%1: %2 call(s), %3 on average (%4 of Computing) on %5, not a CPU fallback%6</source>
        <translation>%1：%2 次调用，平均 %3（占 Computing 的 %4），运行在 %5 上，非 CPU 回退%6</translation>
    </message>
    <message>
        <source>Memory-bound: fewer bytes (a smaller dtype, fewer layout conversions such as TransData), or fuse it with its neighbours.</source>
        <translation>访存受限：减少数据量（更小的数据类型、更少的 TransData 等格式转换），或与相邻算子融合。</translation>
    </message>
    <message>
        <source>Look at its pipe ratios (Level1) and its shapes: a format conversion or an unaligned shape is often the cause.</source>
        <translation>查看其流水线占比（Level1）与 shape：原因常是格式转换或未对齐的 shape。</translation>
    </message>
    <message>
        <source>%1 .item() calls per step (aten::item / _local_scalar_dense): each waits for the device to finish and copies a value to the host</source>
        <translation>每个迭代 %1 次 .item() 调用（aten::item / _local_scalar_dense）：每次都要等 Device 执行完，再把值拷回 Host</translation>
    </message>
    <message>
        <source>Keep losses and metrics on the device and read them every N steps, not every step.</source>
        <translation>让 loss 和指标留在 Device 上，每 N 个迭代读取一次，而不是每个迭代都读。</translation>
    </message>
    <message>
        <source>%1 kernels per step, %2 of them under %3: a storm of small launches</source>
        <translation>每个迭代 %1 个 kernel，其中 %2 短于 %3：大量细碎的小算子下发</translation>
    </message>
    <message>
        <source>Graph mode: torch.compile (TorchAir) or ATC, so that the host launches a graph instead of every small operator.</source>
        <translation>使用图模式：torch.compile（TorchAir）或 ATC，让 Host 下发整张图而不是逐个小算子。</translation>
    </message>
    <message>
        <source>%1 reaches %2 TFLOPS%3; utilisation unknown: the capture does not record the chip (give it: --chip NAME or the Settings)</source>
        <translation>%1 达到 %2 TFLOPS%3；利用率未知：采集中没有记录芯片型号（请指定：--chip NAME 或在设置中选择）</translation>
    </message>
    <message>
        <source>%1 reaches %2 TFLOPS%3; utilisation unknown: no %4 peak for %5 in the table (docs/diagnosis.md §6.3)</source>
        <translation>%1 达到 %2 TFLOPS%3；利用率未知：峰值表中没有 %5 的 %4 峰值（docs/diagnosis.md §6.3）</translation>
    </message>
    <message>
        <source>Below half the peak in half precision already: a larger batch or larger matrices (fused projections) so that the cube units fill, and aligned shapes (multiples of 16).</source>
        <translation>已是半精度但低于峰值的一半：增大 batch 或矩阵规模（如融合投影），让 Cube 单元占满，并使用对齐的 shape（16 的倍数）。</translation>
    </message>
    <message>
        <source>Between the marks: larger or aligned matrices (multiples of 16).</source>
        <translation>介于两条标线之间：使用更大或对齐的矩阵（16 的倍数）。</translation>
    </message>
    <message>
        <source>unknown share</source>
        <translation>占比未知</translation>
    </message>
    <message>
        <source>a core the capture does not name (Level0)</source>
        <translation>采集未记录的核类型（Level0）</translation>
    </message>
    <message>
        <source>%1 reaches %2 TFLOPS%3, above the %4 TFLOPS %5 peak of %6: no kernel beats its peak, so it did not run in %5 (an FP32 kernel in HF32, which this capture does not record) or the peak or the shapes do not hold; utilisation unknown</source>
        <translation>%1 达到 %2 TFLOPS%3，超过 %6 的 %5 峰值 %4 TFLOPS：没有算子能超过峰值，因此它并非以 %5 运行（FP32 算子以 HF32 运行，而本次采集没有记录这一点），或峰值、shape 不成立；利用率未知</translation>
    </message>
    <message>
        <source>Check the precision it runs in (torch.npu.matmul.allow_hf32, torch.npu.conv.allow_hf32) and the chip given.</source>
        <translation>请检查它实际运行的精度（torch.npu.matmul.allow_hf32、torch.npu.conv.allow_hf32）以及所给的芯片型号。</translation>
    </message>
    <message>
        <source>%1 reaches %2 TFLOPS%3; utilisation unknown: the capture names only the chip family %4, whose models&apos; peaks differ (give the model: --chip NAME)</source>
        <translation>%1 达到 %2 TFLOPS%3；利用率未知：采集只记录了芯片系列 %4，其各型号的峰值不同（请给出具体型号：--chip NAME）</translation>
    </message>
</context>
<context>
    <name>npuscope::core::Verdict</name>
    <message>
        <source>Avoid host synchronisation inside the step: remove .item(), .cpu(), print() of device tensors and torch.cuda.synchronize() from the training loop, or defer them (accumulate on the device and read every N steps).</source>
        <translation>避免在 Step 内做 Host 同步：从训练循环中移除 .item()、.cpu()、对 Device 张量的 print() 和 torch.cuda.synchronize()，或推迟它们（在 Device 上累积，每 N 个 Step 读取一次）。</translation>
    </message>
    <message>
        <source>The host cannot launch kernels fast enough: fuse small operators, raise the batch size, or capture the step in a CUDA/HIP graph (torch.compile with mode=&quot;reduce-overhead&quot;, torch.cuda.graphs).</source>
        <translation>Host 下发 kernel 的速度不够：融合小算子、增大 batch size，或把 Step 捕获为 CUDA/HIP graph（torch.compile 的 mode=&quot;reduce-overhead&quot;、torch.cuda.graphs）。</translation>
    </message>
    <message>
        <source>Copies run on the device while it computes nothing: move host-device copies out of the step, copy with non_blocking=True from pinned memory, and keep tensors on the device.</source>
        <translation>Device 上运行拷贝时没有计算：把 Host-Device 拷贝移出 Step，从锁页内存以 non_blocking=True 拷贝，并让张量留在 Device 上。</translation>
    </message>
    <message>
        <source>Streams wait on events: look at what the waiting stream depends on (a collective on another stream, a recorded event) and overlap or reorder the work.</source>
        <translation>流在等待 event：查看等待的流依赖什么（其他流上的集合通信、已记录的 event），然后让这些工作相互掩盖或调整顺序。</translation>
    </message>
    <message>
        <source>Tasks were launched ahead of the device but it held them: look at what their streams wait for (events recorded on other streams, collectives) and overlap or reorder that work.</source>
        <translation>任务先于 Device 下发，却被 Device 延后执行：查看它们的流在等待什么（其他流上记录的 event、集合通信），然后让这些工作相互掩盖或调整顺序。</translation>
    </message>
    <message>
        <source>Avoid host synchronisation inside the step: remove .item(), .cpu(), print() of device tensors and torch.npu.synchronize() from the training loop, or defer them (accumulate on the device and read every N steps).</source>
        <translation>避免在 Step 内做 Host 同步：从训练循环中移除 .item()、.cpu()、对 Device 张量的 print() 和 torch.npu.synchronize()，或推迟它们（在 Device 上累积，每 N 个 Step 读取一次）。</translation>
    </message>
    <message>
        <source>Overlap host-to-device copies with compute: pin host memory (DataLoader pin_memory=True), copy with non_blocking=True, and prefetch the next batch to the device.</source>
        <translation>让 Host 到 Device 的拷贝与计算相互掩盖：使用锁页内存（DataLoader pin_memory=True），以 non_blocking=True 拷贝，并把下一个 batch 预取到 Device。</translation>
    </message>
    <message>
        <source>Operators are compiled online (ACLOP): call torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format=False so that prebuilt binaries are used.</source>
        <translation>算子在线编译（ACLOP）：调用 torch_npu.npu.set_compile_mode(jit_compile=False) 并设置 torch_npu.npu.config.allow_internal_format=False，以使用预编译的二进制。</translation>
    </message>
    <message>
        <source>The ACLOP path (aclopCompileAndExecute) is slow on the host even without compiling: prefer the ACLNN operators (jit_compile=False), and check which operators still take the ACLOP path.</source>
        <translation>即使不编译，ACLOP 路径（aclopCompileAndExecute）在 Host 上也很慢：优先使用 ACLNN 算子（jit_compile=False），并检查哪些算子仍走 ACLOP 路径。</translation>
    </message>
    <message>
        <source>Data loading holds the step: raise DataLoader num_workers, use pin_memory and prefetch_factor.</source>
        <translation>数据加载拖慢了 Step：增大 DataLoader 的 num_workers，使用 pin_memory 和 prefetch_factor。</translation>
    </message>
    <message>
        <source>The host cannot dispatch operators fast enough: fuse small operators, raise the batch size, keep the task queue on (TASK_QUEUE_ENABLE=1 or 2), bind cores, or use graph mode (torchair, torch.compile).</source>
        <translation>Host 下发算子的速度不够：融合小算子、增大 batch size、保持任务队列开启（TASK_QUEUE_ENABLE=1 或 2）、绑核，或使用图模式（torchair、torch.compile）。</translation>
    </message>
    <message>
        <source>The host does no torch work during the gaps: look at the Python code between operators (data preparation, logging, control flow, GC) and move it off the critical path.</source>
        <translation>间隙内 Host 没有执行 torch 工作：查看算子之间的 Python 代码（数据准备、日志、控制流、GC），把它移出关键路径。</translation>
    </message>
    <message>
        <source>%1 (the rest of the file is missing)</source>
        <translation>%1（文件的其余部分缺失）</translation>
    </message>
    <message>
        <source>%1 (the file may end early)</source>
        <translation>%1（文件可能提前结束）</translation>
    </message>
    <message>
        <source>the event array was not closed: the profiler may have stopped before it finished writing</source>
        <translation>事件数组没有闭合：Profiler 可能在写完之前就停止了</translation>
    </message>
    <message>
        <source>%1 (partial capture)</source>
        <translation>%1（不完整的采集）</translation>
    </message>
    <message>
        <source>, up to +%1 (ts %2 ns)</source>
        <translation>，截至 +%1（ts %2 ns）</translation>
    </message>
    <message>
        <source>%1: %2. The figures cover only the part that was read%3; what the profiler wrote after the cut is missing, so the shares may differ for the whole run. %4</source>
        <translation>%1: %2。这些数据只覆盖已读取的部分%3；Profiler 在截断之后写入的内容缺失，因此整个运行的占比可能不同。%4</translation>
    </message>
    <message>
        <source>No device activity</source>
        <translation>无 Device 活动</translation>
    </message>
    <message>
        <source>No device activity in this trace: open a capture with NPU activity to get the Top-Down analysis.</source>
        <translation>此 Trace 中没有 Device 活动：打开含 NPU 活动的采集数据以获得 Top-Down 分析。</translation>
    </message>
    <message>
        <source>The device span is empty.</source>
        <translation>Device 时间跨度为空。</translation>
    </message>
    <message>
        <source>Computing %1, Communication (Not Overlapped) %2, Free %3 of %4</source>
        <translation>在 %4 中，计算 %1，未掩盖通信 %2，空闲 %3</translation>
    </message>
    <message>
        <source>Compute bound</source>
        <translation>计算瓶颈</translation>
    </message>
    <message>
        <source>the device computes %1 of the time; %2.</source>
        <translation>Device 有 %1 的时间在计算；%2。</translation>
    </message>
    <message>
        <source>Look at the longest kernels in the statistics first: their shapes, data types (mixed precision, tensor cores) and achieved TFLOPS against the GPU&apos;s peak.</source>
        <translation>先看统计中耗时最长的 kernel：它们的 shape、数据类型（混合精度、tensor core），以及实际 TFLOPS 与 GPU 峰值的比较。</translation>
    </message>
    <message>
        <source>Look at the longest kernels in the statistics first: their shapes, formats (TransData), TFLOPS against the chip&apos;s peak, and AI_CPU operators.</source>
        <translation>先看统计中耗时最长的 kernel：它们的 shape、格式（TransData）、TFLOPS 与芯片峰值的比较，以及 AI_CPU 算子。</translation>
    </message>
    <message>
        <source>Communication bound</source>
        <translation>通信瓶颈</translation>
    </message>
    <message>
        <source>communication that is not hidden behind computation takes %1 of the time; %2.</source>
        <translation>未被计算掩盖的通信占用了 %1 的时间；%2。</translation>
    </message>
    <message>
        <source>Look at the collectives first: check for a slow rank (the others wait for it), overlap communication with computation (bucketed gradient all-reduce, async collectives), and review the parallel strategy.</source>
        <translation>先看集合通信：检查是否有慢 Rank（其他 Rank 在等它），让通信与计算相互掩盖（分桶梯度 all-reduce、异步集合通信），并审视并行策略。</translation>
    </message>
    <message>
        <source>Dispatch/host bound</source>
        <translation>下发/Host 瓶颈</translation>
    </message>
    <message>
        <source>the device is idle (Free) %1 of the time (%2); %3.</source>
        <translation>Device 有 %1 的时间空闲（Free）（%2）；%3。</translation>
    </message>
    <message>
        <source>The device is also idle (Free) %1 of the time (%2), above the ~10%% mark: dispatch, synchronisation or data movement leave it waiting.</source>
        <translation>Device 还有 %1 的时间空闲（Free）（%2），超过约 10%% 的界线：下发、同步或数据搬运让它在等待。</translation>
    </message>
    <message>
        <source>device activity</source>
        <translation>Device 活动</translation>
    </message>
    <message>
        <source>one busy interval</source>
        <translation>1 个忙碌区间</translation>
    </message>
    <message>
        <source>%1 busy intervals</source>
        <translation>%1 个忙碌区间</translation>
    </message>
    <message>
        <source>The device span includes isolated activity: %1 at ts %2 ns (+%3), %4 %5 before the rest of the device activity, which spans %6. Free and E2E above include that gap; without it: </source>
        <translation>Device 时间跨度包含孤立的活动：%1 位于 ts %2 ns（+%3），%4，比其余 Device 活动早 %5（其余活动跨度 %6）。上面的空闲和 E2E 包含这段间隔；不计它时：</translation>
    </message>
    <message>
        <source>The device span includes isolated activity: %1 at ts %2 ns (+%3), %4 %5 after the rest of the device activity, which spans %6. Free and E2E above include that gap; without it: </source>
        <translation>Device 时间跨度包含孤立的活动：%1 位于 ts %2 ns（+%3），%4，比其余 Device 活动晚 %5（其余活动跨度 %6）。上面的空闲和 E2E 包含这段间隔；不计它时：</translation>
    </message>
    <message>
        <source> (the same dominant share).</source>
        <translation>（主导占比相同）。</translation>
    </message>
    <message>
        <source>; the dominant share differs, so the headline depends on whether that activity belongs to the run.</source>
        <translation>；主导占比不同，因此结论取决于该活动是否属于本次运行。</translation>
    </message>
    <message>
        <source>The trace&apos;s span (%1) is stretched by %2 far from the device activity (%3): the farthest, %4 on %5, at ts %6 ns, %7 before it. The Top-Down figures use the device activity only; its clock or epoch may differ.</source>
        <translation>Trace 的时间跨度（%1）被远离 Device 活动（%3）的 %2 拉长：最远的是 %5 上的 %4，位于 ts %6 ns，比 Device 活动早 %7。Top-Down 数据只使用 Device 活动；这些事件的时钟或纪元可能不同。</translation>
    </message>
    <message>
        <source>The trace&apos;s span (%1) is stretched by %2 far from the device activity (%3): the farthest, %4 on %5, at ts %6 ns, %7 after it. The Top-Down figures use the device activity only; its clock or epoch may differ.</source>
        <translation>Trace 的时间跨度（%1）被远离 Device 活动（%3）的 %2 拉长：最远的是 %5 上的 %4，位于 ts %6 ns，比 Device 活动晚 %7。Top-Down 数据只使用 Device 活动；这些事件的时钟或纪元可能不同。</translation>
    </message>
    <message>
        <source>event</source>
        <translation>个事件</translation>
    </message>
    <message>
        <source>events</source>
        <translation>个事件</translation>
    </message>
    <message>
        <source>The %1 device gaps of 10 us or more (%2) cannot be explained: the host layer (torch ops, runtime calls) was not recorded. Capture with the CPU activity on (torch.profiler ProfilerActivity.CPU) to see what held the device up.</source>
        <translation>%1 个 10 us 及以上的 Device 间隙（%2）无法解释：未记录 Host 层（torch 算子、Runtime 调用）。请开启 CPU 活动采集（torch.profiler ProfilerActivity.CPU），以查看是什么拖住了 Device。</translation>
    </message>
    <message>
        <source>The %1 device gaps of 10 us or more (%2) cannot be explained: the host layers (Python, CANN) were not recorded. Capture with the CPU activity on (torch_npu.profiler ProfilerActivity.CPU) to see what held the device up.</source>
        <translation>%1 个 10 us 及以上的 Device 间隙（%2）无法解释：未记录 Host 层（Python、CANN）。请开启 CPU 活动采集（torch_npu.profiler ProfilerActivity.CPU），以查看是什么拖住了 Device。</translation>
    </message>
    <message>
        <source>Of %1 of 10 us or more (%2), %3 holds the most: %4 (%5) in %6</source>
        <translation>在 10 us 及以上的 %1（%2）中，%3占比最多：%6 共 %4（%5）</translation>
    </message>
    <message>
        <source>device gap</source>
        <translation>个 Device 间隙</translation>
    </message>
    <message>
        <source>device gaps</source>
        <translation>个 Device 间隙</translation>
    </message>
    <message>
        <source>gap</source>
        <translation>个间隙</translation>
    </message>
    <message>
        <source>gaps</source>
        <translation>个间隙</translation>
    </message>
    <message>
        <source>; then %1 %2 (%3)</source>
        <translation>；其次是 %1 %2（%3）</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>%1 of the device tasks start within %2 of their launch (median %3): the launch flows (ac2g) are nearly vertical, the device runs as soon as the host dispatches, so the host sets the pace.</source>
        <translation>%1 的 Device 任务在下发后 %2 内开始执行（中位数 %3）：下发连线（ac2g）几乎是竖直的，Host 一下发 Device 就执行，因此节奏由 Host 决定。</translation>
    </message>
    <message>
        <source>%1 of the device tasks start within %2 of their launch (median %3): the HostToDevice flows are nearly vertical, the device runs as soon as the host dispatches, so the host sets the pace.</source>
        <translation>%1 的 Device 任务在下发后 %2 内开始执行（中位数 %3）：HostToDevice 连线几乎是竖直的，Host 一下发 Device 就执行，因此节奏由 Host 决定。</translation>
    </message>
    <message>
        <source>The torch op %1 launched %2 device tasks; %3 of %4 launched %5 or more: many small tasks from one API are a fusion candidate.</source>
        <translation>torch 算子 %1 下发了 %2 个 Device 任务；%4中有 %3 个下发了 %5 个及以上：同一 API 产生的大量小任务是融合的候选。</translation>
    </message>
    <message>
        <source>op</source>
        <translation>个算子</translation>
    </message>
    <message>
        <source>ops</source>
        <translation>个算子</translation>
    </message>
    <message>
        <source>Host and device clocks disagree by at least %1 (%2; the earliest task starts that much before its own launch): launch latencies are shown corrected by that bound.</source>
        <translation>Host 与 Device 的时钟至少相差 %1（%2；最早的任务比它自己的下发早这么多开始）：显示的下发时延已按该界限校正。</translation>
    </message>
    <message>
        <source>launch</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>launches</source>
        <translation>次下发</translation>
    </message>
    <message>
        <source>%1 aclopCompileAndExecute calls (%2 per step, the advisor&apos;s mark is 20): call torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format=False.</source>
        <translation>%1 次 aclopCompileAndExecute 调用（每 Step %2 次，专家建议的界线是 20）：调用 torch_npu.npu.set_compile_mode(jit_compile=False) 并设置 torch_npu.npu.config.allow_internal_format=False。</translation>
    </message>
    <message>
        <source>The idle time is warm-up (the first, slow calls of operators): profile steps after it (profiler schedule with wait and warmup steps, or skip_first) so that the figures show the steady state; the shares of this capture overstate the idle time.</source>
        <translation>空闲时间来自预热（算子最初几次较慢的调用）：采集预热之后的 Step（profiler schedule 设置 wait 和 warmup 步，或 skip_first），让数据反映稳定状态；本次采集的占比高估了空闲时间。</translation>
    </message>
    <message>
        <source>Computing %1, Communication (Not Overlapped) %2, Free %3, between iterations %4 of %5</source>
        <translation>在 %5 中，计算 %1，未掩盖通信 %2，空闲 %3，迭代间等待 %4</translation>
    </message>
    <message>
        <source>: the data arrives slower than an iteration runs, so the run is data-bound.</source>
        <translation>：数据到达比一个迭代的执行还慢，因此训练受数据加载限制。</translation>
    </message>
    <message>
        <source>Data-loading bound</source>
        <translation>数据加载瓶颈</translation>
    </message>
    <message>
        <source>the device waits between iterations for their data %1 of the time; %2.</source>
        <translation>Device 有 %1 的时间在迭代之间等待数据；%2。</translation>
    </message>
    <message>
        <source>Make the input pipeline keep up with the device: more parallel data workers and prefetching (MindSpore dataset num_parallel_workers and prefetch, PyTorch DataLoader num_workers and pin_memory), augmentation on the device, or data sink mode.</source>
        <translation>让数据输入流水线跟上 Device：增加并行数据处理线程与预取（MindSpore dataset 的 num_parallel_workers 与 prefetch，PyTorch DataLoader 的 num_workers 与 pin_memory），把数据增强放到 Device 上，或使用数据下沉模式。</translation>
    </message>
    <message>
        <source>Between its %1 iterations the device waits %2 (%3 of the span) for the next one: msprof&apos;s step trace records this time as Data_aug Bound (the next iteration&apos;s data is not ready). It is counted in no iteration, so it is neither Free of a step nor a bubble. %4 per gap against %5 per iteration (medians)</source>
        <translation>在 %1 个迭代之间，Device 共等待下一个迭代 %2（占整个跨度的 %3）：msprof 的迭代轨迹把这段时间记为 Data_aug Bound（下一个迭代的数据尚未就绪）。它不属于任何迭代，因此既不是某个 Step 的空闲，也不是空泡。每个间隔 %4，而每个迭代 %5（中位数）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::AdviceModel</name>
    <message>
        <source>%1

Mark: %2
Source: %3
Evidence: %4 slices</source>
        <translation>%1

标记：%2
来源：%3
证据：%4 个切片</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>At stake / step</source>
        <translation>每 Step 可节省</translation>
    </message>
    <message>
        <source>Numbers</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Mark</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>优化方法</translation>
    </message>
    <message>
        <source>every step (%1)</source>
        <translation>每个 Step（%1）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>For an issue: how many ProfilerSteps hold at least one of its evidence slices (recurs every step, or once); empty when it cannot be told (one step, or more than %1 evidence slices)</source>
        <translation>对于问题项：有多少个 ProfilerStep 至少包含一个证据切片（每个 Step 都出现，还是只出现一次）；无法判断时留空（只有一个 Step，或证据切片超过 %1 个）</translation>
    </message>
    <message>
        <source>On how many of the ranks the rule gives the same verdict</source>
        <translation>该规则在多少个 Rank 上给出相同结论</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Step 数</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank 数</translation>
    </message>
    <message>
        <source>issue</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::AdvicePanel</name>
    <message>
        <source>Open a profile to see the advisor&apos;s findings.</source>
        <translation>打开性能数据以查看专家建议。</translation>
    </message>
    <message>
        <source>Thresholds…</source>
        <translation>阈值…</translation>
    </message>
    <message>
        <source>Show and edit the advisor&apos;s thresholds, their defaults and sources, and the chip</source>
        <translation>查看并修改专家建议的阈值、默认值与出处，以及芯片型号</translation>
    </message>
    <message>
        <source>%1 findings, %2 issues; issues first, by time at stake per step. Click: outline the evidence on the timeline; double-click: zoom to the worst slice (memory: to the peak on the memory curve). Hover for the source.</source>
        <translation>%1 条发现，其中 %2 个问题；问题优先，按每 Step 可节省时间排序。单击：在时间线上勾出证据切片；双击：缩放到最严重的切片（内存：定位到内存曲线的峰值）。悬停查看出处。</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::AdvisorThresholdsDialog</name>
    <message>
        <source>Advisor Thresholds</source>
        <translation>专家建议阈值</translation>
    </message>
    <message>
        <source>The marks of the advisor&apos;s rules (docs/diagnosis.md §6). Edited values are kept between sessions and the advice is recomputed at once.</source>
        <translation>专家建议各规则的阈值（docs/diagnosis.md §6）。修改后的值会被保存，建议会立即重新计算。</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>出处</translation>
    </message>
    <message>
        <source>key: %1</source>
        <translation>键：%1</translation>
    </message>
    <message>
        <source>(not recorded by the capture: unknown)</source>
        <translation>（采集数据未记录：未知）</translation>
    </message>
    <message>
        <source>(from the capture: %1)</source>
        <translation>（来自采集数据：%1）</translation>
    </message>
    <message>
        <source>The chip for the TFLOPS utilisation and block-dim rules, when the capture does not record it (the torch_npu text export does not). A name matches the tables below by prefix.</source>
        <translation>采集数据未记录芯片型号时（torch_npu 的 text 导出不记录），用于 TFLOPS 利用率和 block dim 规则的芯片。名称按前缀匹配下表。</translation>
    </message>
    <message>
        <source>Chip:</source>
        <translation>芯片：</translation>
    </message>
    <message>
        <source>Peak TFLOPS (dense, cube) and core counts, read-only:</source>
        <translation>峰值 TFLOPS（稠密，Cube）与核数，只读：</translation>
    </message>
    <message>
        <source>Chip</source>
        <translation>芯片</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>%1 peak</source>
        <translation>%1 峰值</translation>
    </message>
    <message>
        <source>%1 TFLOPS</source>
        <translation>%1 TFLOPS</translation>
    </message>
    <message>
        <source>cores (cube / vector)</source>
        <translation>核数（Cube / Vector）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::AnalysisLabels</name>
    <message>
        <source>Device copy</source>
        <translation>Device 拷贝</translation>
    </message>
    <message>
        <source>Device wait</source>
        <translation>Device 等待</translation>
    </message>
    <message>
        <source>Queued on the device</source>
        <translation>在 Device 上排队</translation>
    </message>
    <message>
        <source>Synchronization</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>HostToDevice copy</source>
        <translation>HostToDevice 拷贝</translation>
    </message>
    <message>
        <source>ACLOP compile</source>
        <translation>ACLOP 编译</translation>
    </message>
    <message>
        <source>ACLOP execution on the host</source>
        <translation>ACLOP 在 Host 侧执行</translation>
    </message>
    <message>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>Slow dispatch</source>
        <translation>下发慢</translation>
    </message>
    <message>
        <source>Host idle</source>
        <translation>Host 空闲</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>First call (warm-up)</source>
        <translation>首次调用（预热）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::BubbleTableModel</name>
    <message>
        <source>Double-click to select the evidence (%1) on the timeline</source>
        <translation>双击在时间线上选中证据（%1）</translation>
    </message>
    <message>
        <source>its launch came after the device went idle (the device waited for the host)</source>
        <translation>它在 Device 空闲之后才下发（Device 在等待 Host）</translation>
    </message>
    <message>
        <source>it was launched before the device went idle (queued; the device held it)</source>
        <translation>它在 Device 空闲之前已下发（在排队，由 Device 侧延后执行）</translation>
    </message>
    <message>
        <source>its launch was not recorded</source>
        <translation>未记录它的下发</translation>
    </message>
    <message>
        <source>host busy %1% of the gap</source>
        <translation>间隙内 Host 忙碌 %1%</translation>
    </message>
    <message>
        <source>msprof-analyze free_analysis: %1</source>
        <translation>msprof-analyze free_analysis：%1</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ChainPanel</name>
    <message>
        <source>Python API</source>
        <translation>Python API</translation>
    </message>
    <message>
        <source>Torch op</source>
        <translation>Torch 算子</translation>
    </message>
    <message>
        <source>Enqueue</source>
        <translation>入队 (Enqueue)</translation>
    </message>
    <message>
        <source>Dequeue</source>
        <translation>出队 (Dequeue)</translation>
    </message>
    <message>
        <source>CANN API</source>
        <translation>CANN API</translation>
    </message>
    <message>
        <source>Node@launch</source>
        <translation>Node@launch</translation>
    </message>
    <message>
        <source>Device task</source>
        <translation>Device 任务</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Via</source>
        <translation>关联方式</translation>
    </message>
    <message>
        <source>How the link was reached from the one below it</source>
        <translation>该层如何从下一层关联得到</translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a device task (Ascend Hardware) or a bubble to see its dispatch chain.&lt;/i&gt;</source>
        <translation>&lt;i&gt;选中一个 Device 任务（Ascend Hardware）或一个空泡，查看其下发链路。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Runtime launch</source>
        <translation>Runtime 下发</translation>
    </message>
    <message>
        <source>latency %1 (corrected)</source>
        <translation>时延 %1（已校正）</translation>
    </message>
    <message>
        <source>latency %1</source>
        <translation>时延 %1</translation>
    </message>
    <message>
        <source>Device task start − host launch (Node@launch, else the CANN API, the HostToDevice flow start or the Dequeue start).</source>
        <translation>Device 任务开始时间 − Host 下发时间（取 Node@launch，否则取 CANN API、HostToDevice 连线起点或 Dequeue 开始时间）。</translation>
    </message>
    <message>
        <source>
Recorded %1. This rank&apos;s host and device clocks disagree: some task starts %2 before its own launch, so every latency is corrected by that bound (docs/diagnosis.md §4).</source>
        <translation>
记录值为 %1。该 Rank 的 Host 与 Device 时钟不一致：有任务比自己的下发早 %2 开始，因此所有时延都按该上界校正（docs/diagnosis.md §4）。</translation>
    </message>
    <message>
        <source>
Negative as recorded: the host and device clocks disagree slightly.</source>
        <translation>
记录值为负：Host 与 Device 时钟略有偏差。</translation>
    </message>
    <message>
        <source>Click to select this slice on the timeline</source>
        <translation>单击在时间线上选中该切片</translation>
    </message>
    <message>
        <source>This layer was not found in the trace (e.g. Level0 or no with_stack); npuscope does not guess it.</source>
        <translation>Trace 中没有找到这一层（例如 Level0 或未开启 with_stack）；npuscope 不做推测。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Dispatch chain&lt;/b&gt;</source>
        <translation>&lt;b&gt;下发链路&lt;/b&gt;</translation>
    </message>
    <message>
        <source>ACLOP path: operator compiled/executed through aclopCompileAndExecute</source>
        <translation>ACLOP 路径：算子经 aclopCompileAndExecute 编译/执行</translation>
    </message>
    <message>
        <source>ACLNN path: two-stage aclnn API (GetWorkspaceSize + launch)</source>
        <translation>ACLNN 路径：两段式 aclnn 接口（GetWorkspaceSize + 下发）</translation>
    </message>
    <message>
        <source>missing (not recorded at this profiler level)</source>
        <translation>缺失（当前采集级别未记录）</translation>
    </message>
    <message>
        <source>launch flow</source>
        <translation>下发连线</translation>
    </message>
    <message>
        <source>op → task flow</source>
        <translation>算子→任务连线</translation>
    </message>
    <message>
        <source>task queue</source>
        <translation>任务队列</translation>
    </message>
    <message>
        <source>encloses it</source>
        <translation>包含下一层</translation>
    </message>
    <message>
        <source>same thread</source>
        <translation>同一线程</translation>
    </message>
    <message>
        <source>Reached from the row below through the profiler&apos;s launch flow (%1): the host call that launched the task</source>
        <translation>经 Profiler 的下发连线（%1）由下一行到达：下发该任务的 Host 调用</translation>
    </message>
    <message>
        <source>Reached through the profiler&apos;s flow from the torch op to its device task (%1)</source>
        <translation>经 Profiler 从 torch 算子到其 Device 任务的连线（%1）到达</translation>
    </message>
    <message>
        <source>Reached through torch_npu&apos;s task queue: the Enqueue on the op&apos;s thread feeds the Dequeue on the dispatch thread (flow %1)</source>
        <translation>经 torch_npu 的任务队列到达：算子线程上的 Enqueue 交给下发线程上的 Dequeue（连线 %1）</translation>
    </message>
    <message>
        <source>This slice encloses the one below it on its thread (its caller)</source>
        <translation>该切片在其线程上包含下一行的切片（调用者）</translation>
    </message>
    <message>
        <source>On the same OS thread, around the row below it in time</source>
        <translation>位于同一操作系统线程上，在时间上包含下一行</translation>
    </message>
    <message>
        <source>same External id</source>
        <translation>相同 External id</translation>
    </message>
    <message>
        <source>kernel&apos;s own record</source>
        <translation>kernel 自身的记录</translation>
    </message>
    <message>
        <source>The torch op whose External id the runtime record carries: Kineto&apos;s own link from an op to its runtime calls</source>
        <translation>带有该运行时记录之 External id 的 torch 算子：Kineto 自身把算子与其运行时调用关联的方式</translation>
    </message>
    <message>
        <source>A runtime record of 0 us at the kernel&apos;s own start: it marks the kernel, not its launch. When the launch happened is not recorded; it lies inside the torch op above</source>
        <translation>位于 kernel 自身开始时刻、时长 0 us 的运行时记录：它标记的是 kernel，而不是其下发。下发发生的时间未被记录，它位于上方的 torch 算子之内</translation>
    </message>
    <message>
        <source>Runtime record</source>
        <translation>运行时记录</translation>
    </message>
    <message>
        <source>Launch time not recorded: issued during %1</source>
        <translation>下发时间未被记录：在 %1 期间下发</translation>
    </message>
    <message>
        <source>Launch time not recorded, and no torch op carries the record&apos;s External id</source>
        <translation>下发时间未被记录，且没有 torch 算子带有该记录的 External id</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ClusterLinkModel</name>
    <message>
        <source>SDMA = HCCS + PCIE + SIO, as communication.json&apos;s totals write it; %1 tasks</source>
        <translation>SDMA = HCCS + PCIE + SIO，与 communication.json 汇总的写法一致；%1 个任务</translation>
    </message>
    <message>
        <source>%1 transfer tasks</source>
        <translation>%1 个传输任务</translation>
    </message>
    <message>
        <source>Bytes moved, in MB of 10^6 bytes as the profiler counts</source>
        <translation>搬运的字节数，按 profiler 的口径以 MB（10^6 字节）计</translation>
    </message>
    <message>
        <source>Size / time, GB of 10^9 bytes per second</source>
        <translation>大小 / 时间，GB（10^9 字节）每秒</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Size (MB)</source>
        <translation>大小 (MB)</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>The slowest link of the capture, below 80% of its nominal %1 GB/s</source>
        <translation>本次采集中最慢的链路，低于其标称带宽 %1 GB/s 的 80%</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1% of %2</source>
        <translation>%1%（标称 %2）</translation>
    </message>
    <message>
        <source>The rank in the HCCL group the transfers go to (dst rank); &quot;all&quot;: the rank&apos;s total per transport</source>
        <translation>传输目的端在 HCCL 通信组内的 Rank（dst rank）；“全部”：该 Rank 按传输类型的合计</translation>
    </message>
    <message>
        <source>Bandwidth against the link&apos;s nominal: HCCS 18, PCIE 20, RDMA 12.5 GB/s (msprof&apos;s HCCL analysis); below 80% the link is slow</source>
        <translation>带宽占链路标称带宽的比例：HCCS 18、PCIE 20、RDMA 12.5 GB/s（msprof 的 HCCL 分析）；低于 80% 即为慢链路</translation>
    </message>
    <message>
        <source>Peer</source>
        <translation>对端</translation>
    </message>
    <message>
        <source>Of nominal</source>
        <translation>占标称</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ClusterMatrixModel</name>
    <message>
        <source>Group rank %1 to %2, HCCL group %3</source>
        <translation>通信组内 Rank %1 到 %2，HCCL 通信组 %3</translation>
    </message>
    <message>
        <source>%1: %2 MB in %3 ms, %4 GB/s (nominal %5 GB/s)</source>
        <translation>%1：%2 MB，用时 %3 ms，%4 GB/s（标称 %5 GB/s）</translation>
    </message>
    <message>
        <source>To group rank %1 (GB/s and share of the link&apos;s nominal)</source>
        <translation>发往通信组内 Rank %1（GB/s 及占链路标称带宽的比例）</translation>
    </message>
    <message>
        <source>From group rank %1 (a loaded rank)</source>
        <translation>来自通信组内 Rank %1（已加载的 Rank）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ClusterPanel</name>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message numerus="yes">
        <source>The Cluster view compares the ranks of a capture: it needs two or more ranks (this profile has %n).</source>
        <translation>
            <numerusform>集群视图对比一次采集中的各 Rank：需要两个或更多 Rank（本 Profile 有 %n 个）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a profile of two or more ranks to compare them.</source>
        <translation>打开包含两个或更多 Rank 的 Profile 以对比它们。</translation>
    </message>
    <message>
        <source>No collective was matched across the ranks.</source>
        <translation>未能在各 Rank 之间匹配到集合通信。</translation>
    </message>
    <message>
        <source>Free (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped, ms)</source>
        <translation>通信（未掩盖，ms）</translation>
    </message>
    <message>
        <source>Computing (ms)</source>
        <translation>计算 (ms)</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Matrix</source>
        <translation>通信矩阵</translation>
    </message>
    <message>
        <source>HCCL group %1</source>
        <translation>HCCL 通信组 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ClusterRankModel</name>
    <message>
        <source>Estimated offset of this rank&apos;s clock against the reference rank: %1 ns, the median over %2 collectives of the difference of their ends. %3</source>
        <translation>该 Rank 时钟相对参考 Rank 的估计偏移：%1 ns，为 %2 个集合通信结束时间之差的中位数。%3</translation>
    </message>
    <message>
        <source>Applied to the starts.</source>
        <translation>已用于校正开始时间。</translation>
    </message>
    <message>
        <source>Not applied: too few collectives, ends on both sides, or under 50 us; the ranks are taken to share one clock.</source>
        <translation>未应用：集合通信太少、结束时间差有正有负或小于 50 us；视为各 Rank 共用同一时钟。</translation>
    </message>
    <message>
        <source>From %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>msprof-analyze&apos;s dimensions of the rank&apos;s first device, summed over the steps (ms): step_trace_time.csv, else the Overlap Analysis lanes, else the device tasks</source>
        <translation>msprof-analyze 的三个维度，取该 Rank 第一个 Device，按 Step 求和 (ms)：优先 step_trace_time.csv，其次 Overlap Analysis 泳道，再次 Device 任务</translation>
    </message>
    <message>
        <source>Collectives this rank reached 50 us or more after the first rank</source>
        <translation>该 Rank 比最早的 Rank 晚到 50 us 或以上的集合通信个数</translation>
    </message>
    <message>
        <source>What the other ranks waited for this rank in the collectives it was late to (ms)</source>
        <translation>在该 Rank 晚到的集合通信中，其他 Rank 等待它的时间 (ms)</translation>
    </message>
    <message>
        <source>What this rank waited for late peers in the collectives (ms)</source>
        <translation>该 Rank 在集合通信中等待晚到对端的时间 (ms)</translation>
    </message>
    <message>
        <source>The clock offset applied to this rank&apos;s starts (ns); — when none is applied (the estimate is in the tooltip)</source>
        <translation>用于校正该 Rank 开始时间的时钟偏移 (ns)；未应用时显示 —（估计值见提示）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Computing
(ms)</source>
        <translation>计算
(ms)</translation>
    </message>
    <message>
        <source>Communication
(Not Overlapped, ms)</source>
        <translation>通信
(未掩盖, ms)</translation>
    </message>
    <message>
        <source>Free
(ms)</source>
        <translation>空闲
(ms)</translation>
    </message>
    <message>
        <source>Late to
(collectives)</source>
        <translation>晚到
(集合通信数)</translation>
    </message>
    <message>
        <source>Others waited
for it (ms)</source>
        <translation>他人等它
(ms)</translation>
    </message>
    <message>
        <source>It waited
(ms)</source>
        <translation>它等待
(ms)</translation>
    </message>
    <message>
        <source>Clock offset
(ns)</source>
        <translation>时钟偏移
(ns)</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ClusterStepModel</name>
    <message>
        <source>Step %1 on this rank&apos;s device: %2 ms
Computing %3 ms, Communication (Not Overlapped) %4 ms, Free %5 ms</source>
        <translation>该 Rank 的 Device 上 Step %1：%2 ms
计算 %3 ms，通信（未掩盖）%4 ms，空闲 %5 ms</translation>
    </message>
    <message>
        <source>Step %1: the dimension chosen above, ms</source>
        <translation>Step %1：上方所选维度，ms</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Step %1</translation>
    </message>
    <message>
        <source>Capture</source>
        <translation>整个采集</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::CollectiveModel</name>
    <message>
        <source>Rank %1 · %2</source>
        <translation>Rank %1 · %2</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Step %1</translation>
    </message>
    <message>
        <source>Start: %1 after the capture start (%2 on the common clock)</source>
        <translation>开始：采集开始后 %1（统一时钟下 %2）</translation>
    </message>
    <message>
        <source>Start: %1 after the capture start</source>
        <translation>开始：采集开始后 %1</translation>
    </message>
    <message>
        <source>Skew: %1 after the first rank (the late rank)</source>
        <translation>偏差：比最早的 Rank 晚 %1（晚到的 Rank）</translation>
    </message>
    <message>
        <source>Skew: %1 after the first rank</source>
        <translation>偏差：比最早的 Rank 晚 %1</translation>
    </message>
    <message>
        <source>Elapse: %1</source>
        <translation>耗时：%1</translation>
    </message>
    <message>
        <source>Transit: %1</source>
        <translation>传输：%1</translation>
    </message>
    <message>
        <source>Wait: %1</source>
        <translation>等待：%1</translation>
    </message>
    <message>
        <source>Synchronization: %1 (waiting for group rank %2)</source>
        <translation>同步：%1（等待通信组内 Rank %2）</translation>
    </message>
    <message>
        <source>Synchronization: %1</source>
        <translation>同步：%1</translation>
    </message>
    <message>
        <source>Idle: %1 (meanwhile another plane waits %2 for group rank %3)</source>
        <translation>空闲：%1（同时另一 Plane 等待通信组内 Rank %3 共 %2）</translation>
    </message>
    <message>
        <source>Idle: %1</source>
        <translation>空闲：%1</translation>
    </message>
    <message>
        <source>No plane tasks recorded (Level0): transit, wait, synchronization and idle are unknown</source>
        <translation>未记录 Plane 任务（Level0）：传输、等待、同步与空闲未知</translation>
    </message>
    <message>
        <source>Recorded by the profiler: elapse %1, transit %2, wait %3, synchronization %4, idle %5</source>
        <translation>profiler 记录：耗时 %1，传输 %2，等待 %3，同步 %4，空闲 %5</translation>
    </message>
    <message>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <source>%1 · step %2</source>
        <translation>%1 · Step %2</translation>
    </message>
    <message>
        <source>%1, group %2</source>
        <translation>%1，通信组 %2</translation>
    </message>
    <message>
        <source>Group ranks not in this capture: %1</source>
        <translation>未在本次采集中的通信组 Rank：%1</translation>
    </message>
    <message>
        <source>Click: show this op on every rank of the timeline</source>
        <translation>单击：在时间线上各 Rank 中显示该算子</translation>
    </message>
    <message>
        <source>The largest skew of the collective: last start - first start (ms)</source>
        <translation>该集合通信的最大偏差：最晚开始 - 最早开始 (ms)</translation>
    </message>
    <message>
        <source>Rank %1 (%2): its start after the first rank&apos;s, ms; bold: the late rank</source>
        <translation>Rank %1（%2）：比最早的 Rank 晚开始的时间，ms；粗体：晚到的 Rank</translation>
    </message>
    <message>
        <source>Max skew (ms)</source>
        <translation>最大偏差 (ms)</translation>
    </message>
    <message>
        <source>Lost (ms)</source>
        <translation>损失 (ms)</translation>
    </message>
    <message>
        <source>The member of the group the others wait for: the last to arrive, loaded or not (a group rank outside the capture arrives when the loaded ranks&apos; first waits on it end); &apos;?&apos; without plane tasks (Level0), where a later member outside the capture cannot be seen; &apos;unknown&apos; when a loaded rank is still held after the last arrival the capture sees; — when every member arrives within 50 us</source>
        <translation>通信组中其他成员在等待的成员：最后到达者，无论是否已加载（不在本次采集中的通信组 rank，其到达时间为已加载 Rank 对它的第一次等待结束之时）；“?”表示没有 Plane 任务（Level0），无法看到采集之外是否有更晚的成员；“未知”表示在能看到的最后到达之后仍有已加载 Rank 被阻塞；“—”表示所有成员都在 50 us 内到达</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>拖慢者</translation>
    </message>
    <message>
        <source>≥ %1</source>
        <translation>≥ %1</translation>
    </message>
    <message>
        <source>What the loaded ranks lose waiting for the holder, summed (ms); &apos;≥&apos; where the holder is unknown: what they lose at least, to the latest arrival the capture sees</source>
        <translation>已加载的 Rank 等待拖慢者损失的时间之和 (ms)；拖慢者未知时显示“≥”：至少损失的时间，算到采集中能看到的最晚到达</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ComparePanel</name>
    <message>
        <source>Align on the first step&apos;s start</source>
        <translation>按第一个迭代的开始对齐</translation>
    </message>
    <message>
        <source>Align on the selected slices</source>
        <translation>按选中的切片对齐</translation>
    </message>
    <message>
        <source>Align the starts of the captures</source>
        <translation>按采集开始时间对齐</translation>
    </message>
    <message>
        <source>How B&apos;s timeline (below) follows A&apos;s: the same time after the first step&apos;s device start, after the slice selected on each, or after each capture&apos;s start</source>
        <translation>B 的时间线（下方）如何跟随 A：相对第一个迭代的 Device 开始、相对各自选中的切片，或相对各自采集的开始，取相同的时间</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>A (ms)</source>
        <translation>A (ms)</translation>
    </message>
    <message>
        <source>B (ms)</source>
        <translation>B (ms)</translation>
    </message>
    <message>
        <source>B - A (ms)</source>
        <translation>B - A (ms)</translation>
    </message>
    <message>
        <source>Calls A / B</source>
        <translation>调用次数 A / B</translation>
    </message>
    <message>
        <source>A: %1 (above) · B: %2 (below)</source>
        <translation>A：%1（上方）· B：%2（下方）</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算 (Computing)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped)</source>
        <translation>未被掩盖的通信 (Communication Not Overlapped)</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲 (Free)</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>Device 时间</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Bubbles</source>
        <translation>空泡</translation>
    </message>
    <message>
        <source>%1 (not comparable)</source>
        <translation>%1（不可比较）</translation>
    </message>
    <message>
        <source>Not comparable: %1</source>
        <translation>不可比较：%1</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::DispatchHistogram</name>
    <message>
        <source>no samples</source>
        <translation>无样本</translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s)</source>
        <translation>
            <numerusform>%n 次调用</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::DispatchPanel</name>
    <message>
        <source>Torch ops</source>
        <translation>Torch 算子</translation>
    </message>
    <message>
        <source>CANN APIs</source>
        <translation>CANN API</translation>
    </message>
    <message>
        <source>Host time</source>
        <translation>Host 耗时</translation>
    </message>
    <message>
        <source>Queue wait (Enqueue → Dequeue)</source>
        <translation>队列等待（Enqueue → Dequeue）</translation>
    </message>
    <message>
        <source>Launch → device start</source>
        <translation>下发 → Device 开始</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>Device 耗时</translation>
    </message>
    <message>
        <source>Histogram:</source>
        <translation>直方图：</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Host p50 (us)</source>
        <translation>Host p50 (us)</translation>
    </message>
    <message>
        <source>Host p90 (us)</source>
        <translation>Host p90 (us)</translation>
    </message>
    <message>
        <source>Host max (us)</source>
        <translation>Host 最大 (us)</translation>
    </message>
    <message>
        <source>Queue p50 (us)</source>
        <translation>队列 p50 (us)</translation>
    </message>
    <message>
        <source>Launch p50 (us)</source>
        <translation>下发 p50 (us)</translation>
    </message>
    <message>
        <source>Device p50 (us)</source>
        <translation>Device p50 (us)</translation>
    </message>
    <message>
        <source>Device p90 (us)</source>
        <translation>Device p90 (us)</translation>
    </message>
    <message>
        <source>Host &gt; device</source>
        <translation>Host &gt; Device</translation>
    </message>
    <message>
        <source>Bubbles ended</source>
        <translation>结束的空泡</translation>
    </message>
    <message>
        <source>Bubble time (us)</source>
        <translation>空泡时间 (us)</translation>
    </message>
    <message>
        <source>Instances whose host time exceeds the device time of their tasks: the host cannot keep the device busy with this op</source>
        <translation>Host 耗时超过其 Device 任务耗时的调用次数：该算子的 Host 侧跟不上 Device</translation>
    </message>
    <message>
        <source>Device idle gaps (10 us or more) that one of its tasks ends</source>
        <translation>由其某个任务结束的 Device 空闲间隙（10 us 及以上）</translation>
    </message>
    <message>
        <source>First task&apos;s start - its launch (Node@launch), clocks corrected</source>
        <translation>首个任务开始时间 - 其下发时间（Node@launch），已校正时钟</translation>
    </message>
    <message>
        <source>No dispatch chains: the trace has no launch flows from the host to the device tasks.</source>
        <translation>没有下发链：trace 中没有从 Host 指向 Device 任务的下发连线。</translation>
    </message>
    <message>
        <source>%1 ops; %2 of them spend more time on the host than their tasks on the device in most calls. Click a row: its instances on the timeline and its histogram.</source>
        <translation>%1 个算子；其中 %2 个在多数调用中 Host 耗时超过其 Device 任务耗时。点击一行：在时间线上显示其各次调用并显示直方图。</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ExportDialog</name>
    <message>
        <source>Export Image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>Time range</source>
        <translation>时间范围</translation>
    </message>
    <message>
        <source>Visible range</source>
        <translation>可见范围</translation>
    </message>
    <message>
        <source>Selection (time range, bubble or slice)</source>
        <translation>选区（时间范围、空泡或切片）</translation>
    </message>
    <message>
        <source>Whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Visible lanes</source>
        <translation>可见泳道</translation>
    </message>
    <message>
        <source>All lanes</source>
        <translation>全部泳道</translation>
    </message>
    <message>
        <source>Lanes of the selection</source>
        <translation>选区所在泳道</translation>
    </message>
    <message>
        <source>PNG (raster)</source>
        <translation>PNG（位图）</translation>
    </message>
    <message>
        <source>SVG (vector)</source>
        <translation>SVG（矢量）</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>1x</source>
        <translation>1x</translation>
    </message>
    <message>
        <source>2x (HiDPI, print)</source>
        <translation>2x（高分屏、打印）</translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation>缩放：</translation>
    </message>
    <message>
        <source>Caption: profile, rank, time range, verdict</source>
        <translation>标题：性能数据、Rank、时间范围、结论</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Copy Image to Clipboard</source>
        <translation>复制图像到剪贴板</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::LaneCanvas</name>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 slices&lt;/b&gt;&lt;br&gt;longest: %2 (%3)&lt;br&gt;span: %4 → %5&lt;br&gt;lane: %6</source>
        <translation>&lt;b&gt;%1 个切片&lt;/b&gt;&lt;br&gt;最长：%2（%3）&lt;br&gt;范围：%4 → %5&lt;br&gt;泳道：%6</translation>
    </message>
    <message>
        <source> &lt;i&gt;(did not end)&lt;/i&gt;</source>
        <translation> &lt;i&gt;（未结束）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;lane: %1</source>
        <translation>&lt;br&gt;泳道：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;value: %2&lt;br&gt;since: %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;数值：%2&lt;br&gt;起始：%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;start: %2 &lt;span style=&apos;color:%5&apos;&gt;(%3)&lt;/span&gt;&lt;br&gt;duration: %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;开始：%2 &lt;span style=&apos;color:%5&apos;&gt;(%3)&lt;/span&gt;&lt;br&gt;时长：%4</translation>
    </message>
    <message>
        <source>overlaps a sibling without nesting</source>
        <translation>与同层切片重叠但不嵌套</translation>
    </message>
    <message>
        <source>Add Marker Here	M</source>
        <translation>在此处添加标记	M</translation>
    </message>
    <message>
        <source>Add Range Marker for the Selection	Shift+M</source>
        <translation>为选区添加范围标记	Shift+M</translation>
    </message>
    <message>
        <source>No timeline: no rank of this profile has a trace (trace_view.json or a database export). The Top-Down panel shows the figures of the profiler&apos;s own tables.</source>
        <translation>无时间线：此性能数据的各 Rank 都没有 trace（trace_view.json 或数据库导出）。Top-Down 面板显示 profiler 自身表格中的数据。</translation>
    </message>
    <message>
        <source>starts before the previous task ends (device clock rounding or tasks running at once: informational)</source>
        <translation>在前一个任务结束前开始（Device 时钟取整或任务同时运行：仅供参考）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::LaneHeader</name>
    <message>
        <source>+%1 more levels</source>
        <translation>+%1 层未展开</translation>
    </message>
    <message>
        <source>
click to collapse</source>
        <translation>
单击折叠</translation>
    </message>
    <message>
        <source>
click to expand</source>
        <translation>
单击展开</translation>
    </message>
    <message>
        <source> · %1 slices · depth %2</source>
        <translation> · %1 个切片 · 深度 %2</translation>
    </message>
    <message>
        <source>
click to fold to %1 rows</source>
        <translation>
单击折叠为 %1 行</translation>
    </message>
    <message>
        <source>
click to show every level</source>
        <translation>
单击显示所有层级</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::LoadPreviewView</name>
    <message>
        <source>Esc to cancel</source>
        <translation>按 Esc 取消</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop loading and free its memory (Esc)</source>
        <translation>停止加载并释放内存（Esc）</translation>
    </message>
    <message>
        <source>Reading the first events…</source>
        <translation>正在读取最初的事件…</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>正在加载</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::MarkersPanel</name>
    <message>
        <source>M adds a marker at the cursor, Shift+M one over the time selection (or right-click the lanes). Kept per profile folder in your settings.</source>
        <translation>M 在光标处添加标记，Shift+M 在时间选区上添加范围标记（也可右键点击泳道）。标记按性能数据文件夹保存在您的设置中。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Colour…</source>
        <translation>颜色…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Double-click to rename; click to show it on the timeline</source>
        <translation>双击重命名；单击在时间线上显示</translation>
    </message>
    <message>
        <source>Marker Colour</source>
        <translation>标记颜色</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::SearchBar</name>
    <message>
        <source>Find slices by name</source>
        <translation>按名称查找切片</translation>
    </message>
    <message>
        <source>Regular expression (ECMAScript)</source>
        <translation>正则表达式（ECMAScript）</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Invalid regex</source>
        <translation>正则表达式无效</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::ShortcutsDialog</name>
    <message>
        <source>Zoom in / out at the mouse cursor (view centre if outside)</source>
        <translation>以鼠标位置为中心放大 / 缩小（鼠标在视图外时以视图中心）</translation>
    </message>
    <message>
        <source>Ctrl+wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Zoom at the mouse cursor</source>
        <translation>以鼠标位置为中心缩放</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>鼠标滚轮</translation>
    </message>
    <message>
        <source>Scroll lanes up / down (View &gt; Mouse Wheel Zooms: zoom, and Shift+wheel scrolls)</source>
        <translation>上下滚动泳道（视图 &gt; 鼠标滚轮缩放：改为缩放，Shift+滚轮滚动）</translation>
    </message>
    <message>
        <source>A / D, Left / Right</source>
        <translation>A / D、← / →</translation>
    </message>
    <message>
        <source>Pan left / right (hold Shift for bigger steps)</source>
        <translation>左右平移（按住 Shift 步长更大）</translation>
    </message>
    <message>
        <source>Shift+wheel, horizontal wheel</source>
        <translation>Shift+滚轮、横向滚轮</translation>
    </message>
    <message>
        <source>Pan left / right</source>
        <translation>左右平移</translation>
    </message>
    <message>
        <source>Up / Down, PgUp / PgDn</source>
        <translation>↑ / ↓、PgUp / PgDn</translation>
    </message>
    <message>
        <source>Scroll lanes up / down</source>
        <translation>上下滚动泳道</translation>
    </message>
    <message>
        <source>Home / End</source>
        <translation>Home / End</translation>
    </message>
    <message>
        <source>Scroll to the first / last lane</source>
        <translation>滚动到第一条 / 最后一条泳道</translation>
    </message>
    <message>
        <source>Left-drag on empty space</source>
        <translation>在空白处按左键拖动</translation>
    </message>
    <message>
        <source>Pan (horizontally and vertically)</source>
        <translation>平移（水平和垂直）</translation>
    </message>
    <message>
        <source>Shift+drag, drag on the ruler</source>
        <translation>Shift+拖动，或在时间标尺上拖动</translation>
    </message>
    <message>
        <source>Select a time range (its duration is shown)</source>
        <translation>选择时间范围（显示其时长）</translation>
    </message>
    <message>
        <source>Zoom to the selected time range</source>
        <translation>缩放到选中的时间范围</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <source>Undo the last zoom</source>
        <translation>撤销上一次缩放</translation>
    </message>
    <message>
        <source>Fit the whole profile</source>
        <translation>显示全部数据</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Select a slice (click on empty space clears)</source>
        <translation>选中切片（单击空白处取消选中）</translation>
    </message>
    <message>
        <source>Double-click, F</source>
        <translation>双击、F</translation>
    </message>
    <message>
        <source>Zoom to the selected slice</source>
        <translation>缩放到选中的切片</translation>
    </message>
    <message>
        <source>Clear the slice and time selections</source>
        <translation>清除切片和时间范围的选择</translation>
    </message>
    <message>
        <source>Find slices by name (Enter / Shift+Enter: next / previous match)</source>
        <translation>按名称查找切片（Enter / Shift+Enter：下一个 / 上一个匹配）</translation>
    </message>
    <message>
        <source>] or Ctrl+Right</source>
        <translation>] 或 Ctrl+→</translation>
    </message>
    <message>
        <source>Follow the selected slice&apos;s first outgoing flow</source>
        <translation>沿选中切片的第一条出向连线跳转</translation>
    </message>
    <message>
        <source>[ or Ctrl+Left</source>
        <translation>[ 或 Ctrl+←</translation>
    </message>
    <message>
        <source>Go back along the selected slice&apos;s first incoming flow</source>
        <translation>沿选中切片的第一条入向连线返回</translation>
    </message>
    <message>
        <source>Click a rank / process header</source>
        <translation>单击 Rank / 进程标题</translation>
    </message>
    <message>
        <source>Expand / collapse it</source>
        <translation>展开 / 折叠</translation>
    </message>
    <message>
        <source>Click a deep lane&apos;s name or its +N more levels row</source>
        <translation>单击深层泳道的名称或其“+N 层未展开”行</translation>
    </message>
    <message>
        <source>Show every level of a deep call stack / fold it back</source>
        <translation>展开深层调用栈的所有层级 / 重新折叠</translation>
    </message>
    <message>
        <source>Show this help</source>
        <translation>显示本帮助</translation>
    </message>
    <message>
        <source>Timeline shortcuts</source>
        <translation>时间线快捷键</translation>
    </message>
    <message>
        <source>Keys / mouse</source>
        <translation>按键 / 鼠标</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Add a marker at the mouse cursor (View &gt; Markers lists them)</source>
        <translation>在鼠标光标处添加标记（视图 &gt; 标记 中列出）</translation>
    </message>
    <message>
        <source>Add a range marker over the selected time range</source>
        <translation>在选中的时间范围上添加范围标记</translation>
    </message>
    <message>
        <source>Ctrl+Up / Ctrl+Down, wheel over the lane names</source>
        <translation>Ctrl+Up / Ctrl+Down，在泳道名称上滚动滚轮</translation>
    </message>
    <message>
        <source>Previous / next rank at the top (one notch a rank)</source>
        <translation>上一个 / 下一个 Rank 置顶（滚轮一格一个 Rank）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::SliceDetailsPanel</name>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>No slice selected</source>
        <translation>未选中切片</translation>
    </message>
    <message>
        <source>(unnamed slice)</source>
        <translation>（未命名切片）</translation>
    </message>
    <message>
        <source>%1 characters; the Name row has all of them</source>
        <translation>共 %1 个字符；“名称”行显示完整内容</translation>
    </message>
    <message>
        <source>  pid </source>
        <translation>  pid </translation>
    </message>
    <message>
        <source>tid </source>
        <translation>tid </translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start (absolute)</source>
        <translation>开始（绝对时间）</translation>
    </message>
    <message>
        <source> (did not end: drawn to the trace end)</source>
        <translation>（未结束：绘制到 Trace 末尾）</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身耗时</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>unfinished</source>
        <translation>未结束</translation>
    </message>
    <message>
        <source>partial overlap</source>
        <translation>部分重叠</translation>
    </message>
    <message>
        <source>instant</source>
        <translation>瞬时事件</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Flows</source>
        <translation>连线</translation>
    </message>
    <message>
        <source>out → %1</source>
        <translation>出 → %1</translation>
    </message>
    <message>
        <source>in ← %1</source>
        <translation>入 ← %1</translation>
    </message>
    <message>
        <source>%1 in, %2 out</source>
        <translation>%1 条入，%2 条出</translation>
    </message>
    <message>
        <source>Args</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>(raw)</source>
        <translation>（原始）</translation>
    </message>
    <message>
        <source>overlap (informational)</source>
        <translation>重叠（仅供参考）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::StatsTableModel</name>
    <message>
        <source>Summed duration of the slices starting in the scope</source>
        <translation>在范围内开始的切片时长之和</translation>
    </message>
    <message>
        <source>Total minus the time covered by child slices on the same lane</source>
        <translation>总耗时减去同一泳道上子切片覆盖的时间</translation>
    </message>
    <message>
        <source>Total / E2E (Computing + Communication(Not Overlapped) + Free in the scope): those three add up to 100 %, as in the Top-Down panel</source>
        <translation>总耗时 / E2E（范围内的计算 + 未被掩盖的通信 + 空闲）：这三项合计 100%，与 Top-Down 面板一致</translation>
    </message>
    <message>
        <source>Total / the layer&apos;s summed total in the scope: the rows add up to 100 %</source>
        <translation>总耗时 / 该层在范围内的总耗时：各行合计 100%</translation>
    </message>
    <message>
        <source>Distinct input shapes (kernel_details.csv)</source>
        <translation>不同输入 Shape 的个数（kernel_details.csv）</translation>
    </message>
    <message>
        <source>Summed Wait Time (kernel_details.csv)</source>
        <translation>Wait Time 之和（kernel_details.csv）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总耗时</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Avg</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>% of E2E</source>
        <translation>占 E2E %</translation>
    </message>
    <message>
        <source>% of layer</source>
        <translation>占本层 %</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>核</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>Shape 数</translation>
    </message>
    <message>
        <source>Wait (us)</source>
        <translation>等待 (us)</translation>
    </message>
    <message>
        <source>Summed FLOPs (from the shapes) / summed duration of %1 of the %2 occurrences</source>
        <translation>%2 次调用中 %1 次的 FLOPs 之和（由 Shape 计算）/ 耗时之和</translation>
    </message>
    <message>
        <source>No work computable: not a MatMul / Conv2D, or no shapes (Level0)</source>
        <translation>无法计算计算量：不是 MatMul / Conv2D，或没有 Shape（Level0）</translation>
    </message>
    <message>
        <source>No pipe ratios in kernel_details.csv (Level1 with aic_metrics PipeUtilization)</source>
        <translation>kernel_details.csv 中没有流水线占比（需 Level1 且 aic_metrics 为 PipeUtilization）</translation>
    </message>
    <message>
        <source>The unit whose pipe ratio is highest (&gt;= %1), for %2 % of the time of the rows with ratios</source>
        <translation>流水线占比最高（&gt;= %1）的单元，占有占比数据的行耗时的 %2 %</translation>
    </message>
    <message>
        <source>Achieved TFLOPS from the recorded shapes (2·M·N·K for MatMul, 2·Cin·k²·Cout·Hout·Wout for Conv2D)</source>
        <translation>由记录的 Shape 计算的实际 TFLOPS（MatMul 为 2·M·N·K，Conv2D 为 2·Cin·k²·Cout·Hout·Wout）</translation>
    </message>
    <message>
        <source>Compute- or memory-bound by the AI Core pipe ratios (kernel_details.csv, Level1+)</source>
        <translation>按 AI Core 流水线占比判断计算瓶颈或访存瓶颈（kernel_details.csv，Level1 及以上）</translation>
    </message>
    <message>
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>瓶颈类型</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::StatsView</name>
    <message>
        <source>Python / aten ops</source>
        <translation>Python / aten 算子</translation>
    </message>
    <message>
        <source>CANN APIs</source>
        <translation>CANN API</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>算子 (Kernel)</translation>
    </message>
    <message>
        <source>Stream tasks</source>
        <translation>流任务</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Overlap Analysis</source>
        <translation>Overlap Analysis</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Which lanes the table covers</source>
        <translation>表格统计哪些泳道</translation>
    </message>
    <message>
        <source>Slices whose start lies in the scope count, with their full duration.
Steps use their device window; Shift+drag on the timeline selects a range.</source>
        <translation>开始时间落在范围内的切片计入统计，按其完整时长计算。
Step 使用其 Device 侧窗口；在时间线上按住 Shift 拖动可选择范围。</translation>
    </message>
    <message>
        <source>Filter names</source>
        <translation>按名称过滤</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>Treat the filter as a regular expression (case-insensitive)</source>
        <translation>把过滤条件当作正则表达式（不区分大小写）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected rows as tab-separated text (Ctrl+C)</source>
        <translation>以制表符分隔的文本复制选中的行（Ctrl+C）</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the rows passing the filter as CSV (times in us)</source>
        <translation>把通过过滤的行保存为 CSV（时间单位 us）</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>sum: every slice&apos;s duration added up (overlapping slices count twice)
union: the time during which at least one slice of the layer runs</source>
        <translation>sum：所有切片时长直接相加（重叠的切片重复计算）
union：该层至少有一个切片在运行的时间</translation>
    </message>
    <message>
        <source>Copy Rows</source>
        <translation>复制行</translation>
    </message>
    <message>
        <source>Show Occurrences</source>
        <translation>列出每次出现</translation>
    </message>
    <message>
        <source>Double-click a row to list its occurrences</source>
        <translation>双击某行列出它的每次出现</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Double-click or Enter: select and zoom to the slice on the timeline</source>
        <translation>双击或按 Enter：在时间线上选中并缩放到该切片</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>rank #%1</source>
        <translation>Rank #%1</translation>
    </message>
    <message>
        <source>Whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <source>Step %1  (%2)</source>
        <translation>Step %1  (%2)</translation>
    </message>
    <message>
        <source>Selected range</source>
        <translation>选中的范围</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Step %1</translation>
    </message>
    <message>
        <source>invalid regular expression: %1 (at %2)</source>
        <translation>正则表达式无效：%1（位置 %2）</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>No %1 slices in this scope (%2)</source>
        <translation>该范围内没有%1切片（%2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Σ %1&lt;/b&gt; (sum) · &lt;b&gt;%2&lt;/b&gt; covered (union) · %3 slices · %4 names · scope %5</source>
        <translation>&lt;b&gt;Σ %1&lt;/b&gt;（sum）· 覆盖 &lt;b&gt;%2&lt;/b&gt;（union）· %3 个切片 · %4 个名称 · 范围 %5</translation>
    </message>
    <message>
        <source> · share of E2E %1</source>
        <translation> · 占 E2E %1</translation>
    </message>
    <message>
        <source> · share of the layer&apos;s sum</source>
        <translation> · 占本层总和</translation>
    </message>
    <message>
        <source>
Kernels are told from stream tasks by %1</source>
        <translation>
算子与流任务的区分依据：%1</translation>
    </message>
    <message>
        <source>1 occurrence of %1</source>
        <translation>%1 出现 1 次</translation>
    </message>
    <message>
        <source>%1 occurrences of %2</source>
        <translation>%2 出现 %1 次</translation>
    </message>
    <message>
        <source> (first %1 listed)</source>
        <translation>（列出前 %1 次）</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export Statistics</source>
        <translation>导出统计</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>显示 %1 行</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::TimeRuler</name>
    <message>
        <source>Drag to select a time range (Shift+Z zooms to it)</source>
        <translation>拖动选择时间范围（Shift+Z 缩放到该范围）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::Timeline</name>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>rank ?</source>
        <translation>Rank ?</translation>
    </message>
    <message>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubble #%1 — %2&lt;/b&gt;&lt;br&gt;%3&lt;br&gt;%4 → %5</source>
        <translation>&lt;b&gt;空泡 #%1 — %2&lt;/b&gt;&lt;br&gt;%3&lt;br&gt;%4 → %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;click to select&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;单击选中&lt;/i&gt;</translation>
    </message>
    <message>
        <source>bubble #%1 · %2 · %3</source>
        <translation>空泡 #%1 · %2 · %3</translation>
    </message>
    <message>
        <source>Marker %1</source>
        <translation>标记 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::TimelineExport</name>
    <message>
        <source>The time range to export is empty.</source>
        <translation>要导出的时间范围为空。</translation>
    </message>
    <message>
        <source>Nothing is selected: select a time range (Shift+drag), a bubble or a slice first.</source>
        <translation>未选中任何内容：请先选择时间范围（Shift+拖动）、空泡或切片。</translation>
    </message>
    <message>
        <source>Nothing to export: no profile is loaded.</source>
        <translation>无可导出内容：未加载性能数据。</translation>
    </message>
    <message>
        <source>No lane is selected: select a slice, a bubble or a dispatch chain first.</source>
        <translation>未选中泳道：请先选择切片、空泡或下发链。</translation>
    </message>
    <message>
        <source>No lane matches &apos;%1&apos;.</source>
        <translation>没有与 &apos;%1&apos; 匹配的泳道。</translation>
    </message>
    <message>
        <source>The image of %1 x %2 px is too large.</source>
        <translation>%1 x %2 像素的图像过大。</translation>
    </message>
    <message>
        <source>npuscope timeline</source>
        <translation>npuscope 时间线</translation>
    </message>
    <message>
        <source>The SVG of the %1 could not be made.</source>
        <translation>无法生成 %1 的 SVG。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>另 %1 个</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::TimelineWidget</name>
    <message>
        <source>view %1  ·  +%2</source>
        <translation>视图 %1  ·  +%2</translation>
    </message>
    <message>
        <source>view %1  ·  %2</source>
        <translation>视图 %1  ·  %2</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::TopDownPanel</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Computing %2 (%3)&lt;br&gt;Communication %4, of which overlapped with computing %5&lt;br&gt;Communication (Not Overlapped) %6 (%7)&lt;br&gt;Free %8 (%9)&lt;br&gt;E2E %10</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;计算 %2（%3）&lt;br&gt;通信 %4，其中被计算掩盖 %5&lt;br&gt;未被掩盖的通信 %6（%7）&lt;br&gt;空闲 %8（%9）&lt;br&gt;E2E %10</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Device</translation>
    </message>
    <message>
        <source>Computing %1</source>
        <translation>计算 %1</translation>
    </message>
    <message>
        <source>Free %1</source>
        <translation>空闲 %1</translation>
    </message>
    <message>
        <source>Overlapped %1</source>
        <translation>已掩盖 %1</translation>
    </message>
    <message>
        <source>Comm. not overlapped %1</source>
        <translation>未掩盖通信 %1</translation>
    </message>
    <message>
        <source>Free %1 (%2)</source>
        <translation>空闲 %1（%2）</translation>
    </message>
    <message>
        <source>E2E %1</source>
        <translation>E2E %1</translation>
    </message>
    <message>
        <source>Whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <source>(no step)</source>
        <translation>（无 Step）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Step %1</translation>
    </message>
    <message>
        <source>Step %1: intervals starting inside the step&apos;s device window, full duration (torch_npu&apos;s step_trace_time rule)</source>
        <translation>Step %1：开始于该 Step 的 Device 侧窗口内的区间，按完整时长计算（torch_npu step_trace_time 的规则）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;computed: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;计算值：%2</translation>
    </message>
    <message>
        <source>&lt;br&gt;recorded (Overlap Analysis lanes): %1</source>
        <translation>&lt;br&gt;记录值（Overlap Analysis 泳道）：%1</translation>
    </message>
    <message>
        <source>&lt;br&gt;step_trace_time.csv: %1</source>
        <translation>&lt;br&gt;step_trace_time.csv：%1</translation>
    </message>
    <message>
        <source>&lt;br&gt;step_trace_time.csv%1: %2</source>
        <translation>&lt;br&gt;step_trace_time.csv%1：%2</translation>
    </message>
    <message>
        <source> (Stage)</source>
        <translation>（Stage）</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;nothing recorded to compare with&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;没有可对照的记录值&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Comm. Not Overlapped</source>
        <translation>未掩盖通信</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>已掩盖</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>E2E</source>
        <translation>E2E</translation>
    </message>
    <message>
        <source>Free %</source>
        <translation>空闲 %</translation>
    </message>
    <message>
        <source>Union of the compute tasks&apos; intervals</source>
        <translation>计算任务区间的并集</translation>
    </message>
    <message>
        <source>Union of the HCCL big ops&apos; intervals</source>
        <translation>HCCL 通信大算子区间的并集</translation>
    </message>
    <message>
        <source>Communication not covered by computing</source>
        <translation>未被计算掩盖的通信</translation>
    </message>
    <message>
        <source>Communication − Comm. Not Overlapped</source>
        <translation>通信 − 未掩盖通信</translation>
    </message>
    <message>
        <source>Device idle: E2E minus computing and communication</source>
        <translation>Device 空闲：E2E 减去计算和通信</translation>
    </message>
    <message>
        <source>Span of device activity (= Computing + Comm. Not Overlapped + Free)</source>
        <translation>Device 活动的时间跨度（= 计算 + 未掩盖通信 + 空闲）</translation>
    </message>
    <message>
        <source>Free / E2E; above 10% is highlighted</source>
        <translation>空闲 / E2E；超过 10% 时高亮</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 bubble, %2&lt;/b&gt;&lt;br&gt;%3 → %4</source>
        <translation>&lt;b&gt;%1 空泡，%2&lt;/b&gt;&lt;br&gt;%3 → %4</translation>
    </message>
    <message>
        <source>&lt;br&gt;after task: </source>
        <translation>&lt;br&gt;前一任务：</translation>
    </message>
    <message>
        <source>&lt;br&gt;ended by task: </source>
        <translation>&lt;br&gt;结束于任务：</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Rank by duration (1 = longest)</source>
        <translation>按时长排名（1 = 最长）</translation>
    </message>
    <message>
        <source>Start relative to the profile start</source>
        <translation>相对于数据起点的开始时间</translation>
    </message>
    <message>
        <source>What the host was doing during the gap</source>
        <translation>间隙期间 Host 在做什么</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Exposed communication&lt;/b&gt; %1: </source>
        <translation>&lt;b&gt;未被掩盖的通信&lt;/b&gt; %1：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Computing&lt;/b&gt; %1: %2 · %3</source>
        <translation>&lt;b&gt;计算&lt;/b&gt; %1：%2 · %3</translation>
    </message>
    <message>
        <source>Tables only: no trace</source>
        <translation>仅有统计表：没有 Trace</translation>
    </message>
    <message>
        <source>The profile has no trace_view.json. The figures below are the profiler&apos;s own (step_trace_time.csv, kernel_details.csv); the timeline, bubbles and dispatch chains need the trace.</source>
        <translation>该数据没有 trace_view.json。以下数据来自采集工具自身的统计（step_trace_time.csv、kernel_details.csv）；时间线、空泡和下发链路需要 Trace。</translation>
    </message>
    <message>
        <source>&lt;i&gt;No Top-Down analysis: the profile has no loadable trace.&lt;/i&gt;</source>
        <translation>&lt;i&gt;无法进行 Top-Down 分析：该数据没有可加载的 Trace。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;Open a profile to see its Top-Down summary.&lt;/i&gt;</source>
        <translation>&lt;i&gt;打开性能数据以查看 Top-Down 概览。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubbles&lt;/b&gt;</source>
        <translation>&lt;b&gt;空泡&lt;/b&gt;</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>优化建议</translation>
    </message>
    <message>
        <source>Computed from the device tasks vs. recorded by the profiler (Overlap Analysis lanes, step_trace_time.csv)</source>
        <translation>根据 Device 任务计算的值 vs. 采集工具记录的值（Overlap Analysis 泳道、step_trace_time.csv）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubbles&lt;/b&gt; — none</source>
        <translation>&lt;b&gt;空泡&lt;/b&gt; — 无</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubbles&lt;/b&gt; — the %1 longest of %2 device gaps (%3 of %4 idle; click to show on the timeline)</source>
        <translation>&lt;b&gt;空泡&lt;/b&gt; — %2 个 Device 间隙中最长的 %1 个（空闲 %4 中的 %3；单击在时间线上显示）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubbles&lt;/b&gt; — %1 device gaps, %2 in total (longest first; click to show on the timeline)</source>
        <translation>&lt;b&gt;空泡&lt;/b&gt; — %1 个 Device 间隙，共 %2（最长的在前；单击在时间线上显示）</translation>
    </message>
    <message>
        <source>the computed value differs from the recorded one</source>
        <translation>计算值与记录值不一致</translation>
    </message>
    <message>
        <source>Whole capture: span of device activity (CANN&apos;s Overlap Analysis rule). Click to list the bubbles of every step.</source>
        <translation>整个采集：设备活动的跨度（CANN Overlap Analysis 的规则）。单击列出所有步的空泡。</translation>
    </message>
    <message>
        <source>&lt;br&gt;device window: %1 (from the first device task launched in the step to the end of the last one, or the host step&apos;s end if later)</source>
        <translation>&lt;br&gt;设备时间窗：%1（从该步下发的第一个设备任务开始，到最后一个任务结束；若主机 step 结束更晚则到其结束）</translation>
    </message>
    <message>
        <source>&lt;br&gt;host step (ProfilerStep#%1 on the timeline): %2</source>
        <translation>&lt;br&gt;主机 step（时间线上的 ProfilerStep#%1）：%2</translation>
    </message>
    <message>
        <source>&lt;br&gt;The two differ: the device runs behind the host, so the figures of this row are over the device window, not over the host step.</source>
        <translation>&lt;br&gt;两者不同：设备落后于主机执行，因此本行数据针对设备时间窗，而非主机 step。</translation>
    </message>
    <message>
        <source>&lt;br&gt;E2E (%1) is the span of the device intervals starting in the window, not the window itself.</source>
        <translation>&lt;br&gt;E2E (%1) 是在该时间窗内开始的设备区间的跨度，而非时间窗本身。</translation>
    </message>
    <message>
        <source> · device window</source>
        <translation> · 设备时间窗</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>全部步</translation>
    </message>
    <message>
        <source>List the bubbles of every step again</source>
        <translation>重新列出所有步的空泡</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubbles of step %1&lt;/b&gt; — %2 of %3 listed bubbles</source>
        <translation>&lt;b&gt;第 %1 步的空泡&lt;/b&gt; — 已列出 %3 个中的 %2 个</translation>
    </message>
    <message>
        <source>several at once %1</source>
        <translation>多个同时 %1</translation>
    </message>
    <message>
        <source>
Core from %1, class from %2. Each share is the time that part alone runs; &quot;several at once&quot; is the time two or more run together (parallel streams), so each split adds up to 100%.</source>
        <translation>
核类型来自 %1，算子类别来自 %2。每项占比是该部分单独运行的时间；“多个同时”是两个及以上同时运行的时间（并行流），因此每种划分合计为 100%。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Click to select what the figures measure on the timeline (the E2E span) and list the step&apos;s bubbles.</source>
        <translation>&lt;br&gt;单击可在时间线上选中这些数值所度量的区间（E2E 跨度），并列出该 Step 的气泡。</translation>
    </message>
    <message>
        <source>synchronization %1 · transit %2 · other wait %3 · idle %4</source>
        <translation>同步 %1 · 传输 %2 · 其他等待 %3 · 空闲 %4</translation>
    </message>
    <message>
        <source>&lt;i&gt;split unknown (no HCCL plane tasks recorded)&lt;/i&gt;</source>
        <translation>&lt;i&gt;构成未知（未记录 HCCL Plane 任务）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>正向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>no launch</source>
        <translation>无下发</translation>
    </message>
    <message>
        <source>… and %1 more ranks</source>
        <translation>…… 另有 %1 个 Rank</translation>
    </message>
    <message>
        <source>Rank summaries</source>
        <translation>Rank 摘要</translation>
    </message>
    <message>
        <source>This capture is a folder of rank summaries (npuscope summarize): each rank&apos;s verdict below was made where its trace lies. The Cluster dock compares the ranks (holders, steps, links); double-click a rank there to open it in full.</source>
        <translation>这是一个 Rank 摘要目录（npuscope summarize 生成）：下面每个 Rank 的结论都是在其 Trace 所在的机器上得出的。集群面板对比各 Rank（拖慢者、Step、链路）；在那里双击某个 Rank 可打开其完整数据。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Between iterations %1 (%2): the device waits for the next iteration (msprof&apos;s Data_aug Bound), in no step</source>
        <translation>&lt;br&gt;迭代间等待 %1（%2）：Device 在等待下一个迭代（msprof 的 Data_aug Bound），不属于任何 Step</translation>
    </message>
    <message>
        <source>Between iterations %1</source>
        <translation>迭代间等待 %1</translation>
    </message>
    <message>
        <source>Between iterations %1 (%2)</source>
        <translation>迭代间等待 %1（%2）</translation>
    </message>
</context>
<context>
    <name>npuscope::widgets::WarningsDialog</name>
    <message>
        <source>Import warnings</source>
        <translation>导入警告</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>load error: %1</source>
        <translation>加载错误：%1</translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation>说明：%1</translation>
    </message>
    <message>
        <source>table</source>
        <translation>统计表</translation>
    </message>
    <message>
        <source>Profile messages</source>
        <translation>数据消息</translation>
    </message>
    <message>
        <source>No import warnings: every event was read as written.</source>
        <translation>没有导入警告：所有事件均按原样读取。</translation>
    </message>
    <message>
        <source>%1 event(s) or table problem(s) were skipped, repaired or flagged while importing. The rest of the profile loaded normally.</source>
        <translation>导入时有 %1 个事件或统计表问题被跳过、修复或标记。其余数据已正常加载。</translation>
    </message>
    <message>
        <source>%1 (informational)</source>
        <translation>%1（仅供参考）</translation>
    </message>
    <message>
        <source>%1 more are informational (listed dimmed, not counted): overlaps under 1 us from the device clock&apos;s rounding and communication tasks running at once.</source>
        <translation>另有 %1 条仅供参考（灰色列出，不计入）：Device 时钟取整造成的 1 us 以内重叠，以及同时运行的通信任务。</translation>
    </message>
</context>
</TS>
