// 练习 6（exercises/06-streamable-http）的入口：学员在一个文件里写出 SSE 读取器
// （参考实现把它放在 framing/sse.ts）和 Streamable HTTP 会话的客户端一侧
// （http/client-transport.ts）。这个文件只是把它们汇集起来，这样规格测试针对参考实现运行时，
// '@learner' 可以代表学员的整个文件；页面的 HTTP 单步执行器、“用你的代码驱动”和
// “检验我的客户端”也通过同样的名字加载这个模块或学员的文件。

export { SseReader, encodeSseEvent, encodeSseText } from '../framing/sse.ts';
export type { SseEvent, SseEventInit, SseReadItem } from '../framing/sse.ts';
export { HttpClientTransport, HTTP_CLIENT_FRAMING } from './client-transport.ts';
export type { HttpClientTransportOptions } from './client-transport.ts';
