// 练习 5（exercises/05-register-mcp-tools）的入口：学员把这些函数写在一个文件里，
// 而参考实现把它们放在三个小模块中，每个只做一件事。这个文件只是把它们汇集起来，
// 这样规格测试针对参考答案运行时，'@learner' 可以代表学员的整个文件。文件名取自练习的
// 标题（本地注册表里的远程工具）；"bridge" 指的是实时视图里的 WebSocket bridge。

export { schemaToParams } from './schema-to-params.ts';
export { mcpResultToText } from './mcp-result-to-text.ts';
export { isLegalToolName, registerMcpTools, riskFromAnnotations } from './register-mcp-tools.ts';
export type { McpToolSource, RegisterMcpToolsOptions } from './register-mcp-tools.ts';
