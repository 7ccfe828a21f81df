// 练习 7（exercises/07-stateless-era）的入口：学员在一个文件里写出双时代客户端的新时代一半，
// 而参考实现把它放在三个小模块里，每个只做一件事——探测的判定（probe.ts）；给每个请求加上
// `_meta` 信封、在 -32022 之后重试并执行 MRTR 轮次的会话（modern-session.ts）；以及对服务器
// 输入请求的回答（input-requests.ts）。这个文件只是把它们汇集起来，这样规格测试针对参考实现
// 运行时，'@learner' 可以代表学员的整个文件；DualEraClient（dual-era-client.ts）运行的
// 也正是这些模块。

export { classifyProbe } from './probe.ts';
export type { DiscoverResult, ProbeContext, ProbeOutcome, ProbeTransportKind, ProbeVerdict } from './probe.ts';
export { ModernSession } from './modern-session.ts';
export type { DiscoverOptions, DiscoverVerdict, ModernSessionOptions } from './modern-session.ts';
export { answerInputRequests, capabilitiesFor } from './input-requests.ts';
export type { InputHandler, InputHandlers, RetryFields } from './input-requests.ts';
