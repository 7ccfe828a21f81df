// The SDK checks' UI text, English and Simplified Chinese with identical keys. Merged into the
// page's resources under `sdkChecks` (src/app/i18n/en.ts, zh-CN.ts). Protocol and program names
// (initialize, tools/list, isError, NDJSON, sdk-echo-server) stay in English in both languages.

export const sdkChecksEn = {
  heading: 'Check against the official MCP SDK',
  intro:
    'Your own code meets code nobody here wrote. Check my client runs your exercise 3 client (in a Web Worker) against a server built with the official @modelcontextprotocol/sdk; Check my server drives your exercise 4 server with the official SDK client. Both run in the live host, over NDJSON.',
  checkClient: 'Check my client',
  checkServer: 'Check my server',
  checkClientNote: 'Exercise 3 client against sdk-echo-server: handshake, list, call, two requests in flight, an unknown tool, your bytes, close.',
  checkServerNote: 'Exercise 4 server driven by the SDK Client: connect, listTools, callTool echo, a failing tool, an unknown tool, ping.',
  codeFrom: 'Uses the code saved in your editor for {{exercise}}.',
  clientReport: 'Report: your client',
  serverReport: 'Report: your server',
  notRun: 'Not run yet.',
  phase: {
    loading: 'Loading the official SDK…',
    starting: 'Starting {{program}} on the {{host}} host…',
    checking: 'Checking… {{done}} of {{total}} done',
    checkingFirst: 'Checking…',
  },
  summary: {
    pass: 'All {{total}} checks passed on the {{host}} host.',
    fail: '{{failed}} of {{total}} checks did not pass on the {{host}} host.',
    error: 'The checks could not run.',
  },
  blocker: {
    probing: 'Waiting for the page to choose a host…',
    'no-host': 'No host can run servers in this page, so neither check can run.',
  },
  fallback: {
    'shared-bridge':
      'Your server runs in the in-browser worker: this bridge is shared on the network (--host) and never runs learner-written code, because that would run on the machine serving the workshop.',
    'not-enabled':
      'Your server runs in the in-browser worker: the local bridge runs code a page sends only when started with npm start -- --learner-code-in-node (then in an OS sandbox).',
    'no-sandbox':
      'Your server runs in the in-browser worker: the bridge was started with --learner-code-in-node, but its machine has no sandbox for learner code (install bubblewrap), so it does not run it.',
  },
  confirmShared:
    'The exercise 4 code in your editor came from a share link: someone else wrote it. Run it on the {{host}} host (outside the browser sandbox)? Cancel keeps it from running there.',
  problem: {
    'start-failed': 'The {{host}} host could not start the server: {{detail}}',
    crashed: 'Something went wrong on the page: {{detail}}',
    declined: 'Not run: you chose not to run code from a share link on the {{host}} host. Keep it as your code, or use ?host=worker, to check it.',
  },
  status: { pass: 'pass', fail: 'fail', error: 'error' },
  expected: 'Expected',
  actual: 'Actual',
  code: 'What the check does',
  duration: '{{ms}} ms',
  check: {
    client: {
      handshake: 'Handshake: initialize names a protocol version the SDK speaks and serverInfo.name sdk-echo-server',
      'list-tools': 'listTools: the SDK server lists echo',
      'call-echo': 'callTool echo: the text comes back unchanged',
      'in-flight': 'Two requests in flight: each answer reaches its own request (the SDK server answers the later one first)',
      'unknown-tool': 'An unknown tool: SDK 1.x answers with isError data, and callTool resolves with it',
      bytes: "Every line your client wrote is NDJSON the SDK's parser accepts, notifications/initialized included",
      close: 'close: stdin ends and the SDK server exits on its own',
    },
    server: {
      handshake: 'Handshake: the SDK client connects (initialize, then notifications/initialized)',
      'list-tools': 'listTools: echo is listed with an object input schema',
      'call-echo': 'callTool echo: the same text comes back as one text block',
      'failing-tool': 'A failing tool is a result with isError: true, not a JSON-RPC error',
      'unknown-tool': 'An unknown tool is the protocol error -32602 (the SDK client throws McpError)',
      ping: 'ping is answered with an empty result',
      'nothing-stray': 'Nothing the SDK rejects arrived (no answers to notifications, no unknown ids)',
    },
  },
  hosts: {
    heading: 'Where the checks run',
    chosen: 'in use',
    notInUse: 'not in use: {{reason}}',
    runs: 'runs',
    'in-worker': 'runs in the worker instead',
    worker: 'Worker (in this tab): the SDK server and your server each run in their own Web Worker; works offline.',
    bridge: 'Local bridge (npm start): the SDK server runs as a Node process on your own machine; your server too, in an OS sandbox, only with npm start -- --learner-code-in-node.',
    webcontainer: 'WebContainer: Node in the browser, both checks run there; it needs the network to boot, so offline it is unavailable.',
    clientColumn: 'Check my client',
    serverColumn: 'Check my server',
  },
};

export const sdkChecksZhCN: typeof sdkChecksEn = {
  heading: '用官方 MCP SDK 检验',
  intro:
    '让你自己写的代码去对接一份不是我们写的代码。“检验我的 client”会在 Web Worker 里运行你在练习 3 写的 client，连接一个用官方 @modelcontextprotocol/sdk 搭建的 server；“检验我的 server”则用官方 SDK 的 Client 来驱动你在练习 4 写的 server。两者都在当前的运行环境里，通过 NDJSON 通信。',
  checkClient: '检验我的 client',
  checkServer: '检验我的 server',
  checkClientNote: '练习 3 的 client 对接 sdk-echo-server：握手、列出工具、调用工具、两个请求同时在途、调用不存在的工具、检查你发出的字节、关闭。',
  checkServerNote: '用 SDK 的 Client 驱动练习 4 的 server：连接、listTools、调用 echo、调用会失败的工具、调用不存在的工具、ping。',
  codeFrom: '使用编辑器中为 {{exercise}} 保存的代码。',
  clientReport: '报告：你的 client',
  serverReport: '报告：你的 server',
  notRun: '还没有运行。',
  phase: {
    loading: '正在加载官方 SDK……',
    starting: '正在 {{host}} 环境中启动 {{program}}……',
    checking: '检验中……已完成 {{done}} / {{total}} 项',
    checkingFirst: '检验中……',
  },
  summary: {
    pass: '在 {{host}} 环境中，{{total}} 项检验全部通过。',
    fail: '在 {{host}} 环境中，{{total}} 项检验有 {{failed}} 项没有通过。',
    error: '检验没能运行。',
  },
  blocker: {
    probing: '正在等待页面选定运行环境……',
    'no-host': '这个页面里没有能运行 server 的环境，两项检验都无法进行。',
  },
  fallback: {
    'shared-bridge':
      '你的 server 在浏览器内的 Worker 里运行：这个 bridge 是在局域网上共享的（--host 模式），它从不运行学员写的代码，因为那些代码会跑在提供工作坊的那台机器上。',
    'not-enabled':
      '你的 server 在浏览器内的 Worker 里运行：只有用 npm start -- --learner-code-in-node 启动时，本机 bridge 才会运行网页发来的代码（而且是在操作系统沙箱里）。',
    'no-sandbox':
      '你的 server 在浏览器内的 Worker 里运行：bridge 虽然用 --learner-code-in-node 启动，但所在的机器没有运行学员代码所需的沙箱（请安装 bubblewrap），所以它不运行这些代码。',
  },
  confirmShared:
    '编辑器里练习 4 的代码来自一个分享链接，是别人写的。要在 {{host}} 环境中（浏览器沙箱之外）运行它吗？选择“取消”就不会在那里运行。',
  problem: {
    'start-failed': '{{host}} 环境没能启动 server：{{detail}}',
    crashed: '页面这边出了问题：{{detail}}',
    declined: '没有运行：你选择不在 {{host}} 环境中运行来自分享链接的代码。把它保存为你自己的代码，或者使用 ?host=worker，就可以检验它。',
  },
  status: { pass: '通过', fail: '未通过', error: '出错' },
  expected: '期望',
  actual: '实际',
  code: '这项检验做了什么',
  duration: '{{ms}} 毫秒',
  check: {
    client: {
      handshake: '握手：initialize 的结果里，协议版本是 SDK 支持的，serverInfo.name 是 sdk-echo-server',
      'list-tools': 'listTools：SDK server 列出了 echo',
      'call-echo': '调用 echo：原样返回同一段文字',
      'in-flight': '两个请求同时在途：每个响应都回到自己的请求（SDK server 会先回答后发出的那个）',
      'unknown-tool': '不存在的工具：SDK 1.x 用 isError 数据作答，callTool 应当正常返回这个结果',
      bytes: '你的 client 写出的每一行都是 SDK 解析器能接受的 NDJSON，其中包括 notifications/initialized',
      close: 'close：关闭 stdin 后，SDK server 自行退出',
    },
    server: {
      handshake: '握手：SDK client 能连上（先 initialize，再 notifications/initialized）',
      'list-tools': 'listTools：列出了 echo，并带有 object 类型的输入 schema',
      'call-echo': '调用 echo：同一段文字作为一个文本块原样返回',
      'failing-tool': '工具执行失败时返回 isError: true 的结果，而不是 JSON-RPC 错误',
      'unknown-tool': '调用不存在的工具应得到协议错误 -32602（SDK client 会抛出 McpError）',
      ping: 'ping 得到一个空结果',
      'nothing-stray': '没有收到 SDK 拒收的消息（不回应通知，也没有对不上号的 id）',
    },
  },
  hosts: {
    heading: '检验在哪里运行',
    chosen: '使用中',
    notInUse: '未使用：{{reason}}',
    runs: '可以运行',
    'in-worker': '改在 Worker 里运行',
    worker: 'Worker（在本标签页内）：SDK server 和你的 server 各自运行在独立的 Web Worker 中，离线也能用。',
    bridge: '本地 bridge（npm start）：SDK server 以 Node 进程的形式运行在你自己的电脑上；你的 server 只有在使用 npm start -- --learner-code-in-node 时才会在这里运行，而且是在操作系统沙箱里。',
    webcontainer: 'WebContainer：浏览器里的 Node，两项检验都能在其中运行；它需要联网才能启动，离线时不可用。',
    clientColumn: '检验我的 client',
    serverColumn: '检验我的 server',
  },
};
