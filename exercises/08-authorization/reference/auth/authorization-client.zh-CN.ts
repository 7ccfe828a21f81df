// 练习 8（exercises/08-authorization）的入口：学习者在一个文件里写 MCP 授权中客户端的几步纯函数
// （两份元数据去哪里找、PKCE、授权 URL 和重定向回来、令牌请求），参考实现则把它们分成四个小模块，
// 各管一件事。这个文件只是把它们汇集起来，这样规格对照参考实现运行时，'@learner' 就能代表学习者的
// 整个文件；授权流程（flow.ts）和各个程序运行的也正是这些模块。

export { authorizationServerMetadataUrls, protectedResourceMetadataUrls } from './discovery-urls.ts';
export { codeChallengeS256, createCodeVerifier, isCodeVerifier } from './pkce.ts';
export { authorizationUrl, codeFromRedirect } from './authorization-request.ts';
export type { AuthorizationRequest } from './authorization-request.ts';
export { basicCredentials, tokenRequestForm } from './token-request.ts';
export type { Grant, TokenRequestForm } from './token-request.ts';
