// SPDX-License-Identifier: MIT
#pragma once
// A hand-built torch_npu Kineto (PrivateUse1) trace shared by the core and widget tests.

namespace npuscope::test {

// torch_npu's Kineto (PrivateUse1) runtime records as issue 41 item 6 found them: 0 us long, at
// their kernel's own start, while the ops that issued the kernels ran ~10 ms earlier (the device
// was behind the host). By hand (us): aten::add [10,30) External id 11 issues Add [10000,10010);
// aten::mm [40,60) id 12 issues MatMul [20000,20030). The records LaunchKernel (dur 0) sit at
// 10000 (id 11) and 20000 (id 12); an unrelated aten::zero_ [19990,20005) id 13 surrounds the
// second one in time. The device is idle [10010,20000).
inline constexpr const char* kNpuKernelRecords = R"({"schemaVersion":1,"traceEvents":[
{"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"python3"}},
{"ph":"M","name":"process_labels","pid":100,"tid":0,"args":{"labels":"CPU"}},
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"NPU"}},
{"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"Ascend NPU"}},
{"ph":"M","name":"thread_name","pid":1,"tid":3,"args":{"name":"NPU stream 3"}},
{"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":30000,"args":{"External id":10}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":10,"dur":20,"args":{"External id":11}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":40,"dur":20,"args":{"External id":12}},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":10000,"dur":0,"args":{"External id":11,"correlation":1}},
{"ph":"X","cat":"cpu_op","name":"aten::zero_","pid":100,"tid":100,"ts":19990,"dur":15,"args":{"External id":13}},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":20000,"dur":0,"args":{"External id":12,"correlation":2}},
{"ph":"X","cat":"kernel","name":"Add","pid":1,"tid":3,"ts":10000,"dur":10,"args":{"streamId":3,"type":"KERNEL_AIVEC","correlation":1}},
{"ph":"X","cat":"kernel","name":"MatMul","pid":1,"tid":3,"ts":20000,"dur":30,"args":{"streamId":3,"type":"KERNEL_AICORE","correlation":2}},
{"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":100,"ts":10000},
{"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":3,"ts":10000,"bp":"e"},
{"ph":"s","cat":"ac2g","name":"ac2g","id":2,"pid":100,"tid":100,"ts":20000},
{"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":1,"tid":3,"ts":20000,"bp":"e"}
]})";


}  // namespace npuscope::test
