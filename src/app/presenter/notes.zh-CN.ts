// 简体中文讲者备注。与 notes.en.ts 覆盖相同的步骤（notes.node.test.ts 负责检查）；协议名称保留英文。

import type { PresenterNotes } from './notes.ts';

export const notesZhCN: PresenterNotes = {
  handshake: {
    intro:
      '三条泳道：客户端、stdio 管道、服务器。现在什么都还没运行。第一步会启动真实的 echo 服务器，并让客户端把 initialize 写进它的 stdin。可以先问大家：客户端在调用工具之前，必须先发什么？',
    steps: [
      {
        kind: 'initialize',
        text: '客户端写出了 id 为 0 的 initialize（官方 SDK 的客户端也从 0 开始编号），带上 protocolVersion 2025-11-25、clientInfo 和 capabilities。箭头要等这些字节真正到达 stdin 才会画出来。打开这一帧看看：Content-Length 分帧的头部数的是正文的 UTF-8 字节数。状态机仍停在 new：请求发出去了，不等于已经得到应答。',
      },
      {
        kind: 'receive',
        text: '服务器的应答一直在管道里等着，现在客户端把它读了出来。id 同样是 0，所以待响应表把它和 initialize 那一行配上了。结果里有 protocolVersion（服务器支持的话就原样回送）、带 tools 的 capabilities，以及 serverInfo。直到这时，客户端才进入 initialized。',
      },
      {
        kind: 'notify-initialized',
        text: 'notifications/initialized 没有 id：它是通知，而通知永远不会得到应答，连错误都不会有。客户端现在进入 ready。本章的服务器在收到这条通知之前会用 -32600 拒绝工具请求；可以顺带指出，官方 SDK 的服务器在 stdio 上并没有这么严格。',
      },
      {
        kind: 'list-tools',
        text: 'id 为 1 的 tools/list。待响应表多了一行，状态是等待中。能把应答和这个请求对上的只有 id：应答回来的顺序是不保证的。',
      },
      {
        kind: 'receive',
        text: '工具列表：echo、add、delay_echo、fail、delete_file，每个都有 name、description 和 inputSchema。模型看到的就是这些。留意 add：本章的本地注册表里也有一个 add，这正是练习 5 要处理的重名问题。',
      },
      {
        kind: 'call-tool',
        text: '用“你好, MCP 👋”调用 tools/call echo。打开这一帧数一数：“你”和“好”各占 3 个字节，表情符号占 4 个，而 JavaScript 的 .length 数的是 UTF-16 码元。Content-Length 必须按字节计数；按字符计数会把正文截短，之后的每一帧都会跟着出错。',
      },
      {
        kind: 'receive',
        text: 'echo 的结果回来了，content 是一个内容块列表，这里只有一个文本块。一个存在但执行失败的工具同样会返回结果，只是带上 isError: true，这样模型才能读到出了什么问题。JSON-RPC 错误留给请求本身有问题的情况，比如未知工具（-32602）。',
      },
      {
        kind: 'close',
        text: 'stdio 没有“再见”消息。close() 关闭服务器的 stdin，服务器读到文件结束（EOF）。客户端进入 closed，此时如果还有未应答的请求，都会被拒绝。',
      },
      {
        kind: 'exit',
        text: '服务器读到 EOF，以退出码 0 结束。整个会话就是这样：initialize、它的应答、notifications/initialized，然后是按 id 配对的请求。按 ← 可以回看任意一刻：不会重新发送任何东西，图是根据记录下来的字节重画的。',
      },
    ],
    scenario: '当前加载的是失败模式实验室里的场景，不是握手。先说出这种失败模式的名字，让大家猜猜会出现什么症状，再单步执行，指给大家看症状出现在哪里：时序图上、字节里，还是状态机和待响应表里。',
  },
  eras: {
    modern: {
      intro:
        '同一条管道、同一个 echo 服务器，换成 2026-07-28 修订版：不再有握手。没有 initialize，没有 notifications/initialized，也没有会话；每个请求都在 _meta 里带上协议版本和客户端能力。每行一条 NDJSON，这是各个修订版共同的 stdio 分帧。可以问大家：既然事先什么都不协商，服务器怎么知道每个请求说的是哪个版本？',
      steps: [
        {
          kind: 'connect',
          text: 'connect() 写出了 server/discover：每个 2026-07-28 服务器都必须（MUST）实现它，客户端可以（MAY）先发它。打开看看：_meta 里有 io.modelcontextprotocol/protocolVersion 2026-07-28 和 io.modelcontextprotocol/clientCapabilities。这只是一次询问，不是握手：之后不用再等任何通知。',
        },
        {
          kind: 'receive',
          text: 'discover 的结果列出服务器支持的版本（supportedVersions）、它的能力和 serverInfo，并标明 resultType complete。客户端立刻就绪，后面没有 initialized 通知。服务器若不支持客户端的版本，会回 -32022，data 里带 supported 和 requested，客户端再用双方都支持的版本重试。',
        },
        {
          kind: 'list-tools',
          text: 'tools/list，仍然带着完整的 _meta：在 2026-07-28 中每个请求都是独立的，所以每次都要重复版本和能力。请求和应答照旧靠 id 配对。',
        },
        {
          kind: 'receive',
          text: '还是握手场景里那五个工具。这个修订版的新东西：结果里有 resultType complete，列表结果带 ttlMs 和 cacheScope（列表可以缓存多久），serverInfo 放在结果的 _meta 里，而不是在 initialize 的结果里。',
        },
        {
          kind: 'call-tool',
          text: 'tools/call echo，参数是“你好, MCP 👋”。字节与字符的那一课照样成立，只是现在写在一行 NDJSON 里：行在 \n 处结束，所以字符串里的换行必须保持转义。这个请求同样带着 _meta。',
        },
        {
          kind: 'receive',
          text: 'echo 的结果回来了，resultType 是 complete。另一个取值 input_required，是 2026-07-28 服务器向客户端要东西（采样、征询、根目录）的方式：客户端在同一个请求的重试里作答，而不是由服务器自己发请求。',
        },
        {
          kind: 'close',
          text: 'close() 结束服务器的 stdin，和握手时代一样：stdio 仍然没有告别消息。没有会话，也就没有别的东西需要结束。',
        },
        {
          kind: 'exit',
          text: '服务器读到 EOF 后退出。和握手场景比一比：开头少了四个箭头，每个请求都自带说明。握手并没有错：所有旧服务器仍然只说握手，下一个“探测”场景演示的就是这种情况。',
        },
      ],
    },
    probe: {
      intro:
        '一个双时代客户端遇到只懂握手的服务器。它事先无法知道，所以先问：先发 server/discover，只要回答不是 2026-07-28 认识的错误，就在同一条管道上退回 initialize。可以问大家：旧服务器遇到一个从没听说过的方法，会怎么回答？',
      steps: [
        {
          kind: 'connect',
          text: 'connect() 写出了带 2026-07-28 _meta 的 server/discover：这就是探测。字节里没有任何东西说明服务器是旧的；客户端只能从应答里得知。',
        },
        {
          kind: 'receive',
          text: '握手时代的服务器用 -32600 拒绝了这次探测：本章的服务器拒绝 initialize 之前的一切请求（SDK 的服务器会回 -32601 Method not found）。两者都不是 2026-07-28 的错误（-32022 才表示“版本不匹配，请重试”），所以客户端判定对方是旧服务器，立即写出 initialize。',
        },
        {
          kind: 'fallback',
          text: '退回握手：探测的应答一到，initialize 就发出去了，它的结果带回一个握手时代的 protocolVersion，客户端随后发出 notifications/initialized。从这里开始就是握手时代的会话：请求里不再带 _meta 信封。',
        },
        {
          kind: 'list-tools',
          text: 'tools/list 和握手场景一样：普通的 params，没有信封。客户端根据服务器的应答选定了时代；双时代服务器则相反，根据客户端的开场方式选时代（先发 initialize，这个进程就按旧时代处理）。',
        },
        {
          kind: 'receive',
          text: '工具列表里没有 resultType、ttlMs，_meta 里也没有 serverInfo：旧服务器不发这些，缺少 resultType 就当作 complete。',
        },
        {
          kind: 'call-tool',
          text: 'tools/call echo，参数是“你好, MCP 👋”，和握手时代的客户端发的一模一样。学员在练习 7 里写的客户端，也必须从同样的字节做出同样的判断。',
        },
        {
          kind: 'receive',
          text: 'echo 的结果。探测的代价是开头多一次往返；换来的是一个客户端能和两种服务器对话。',
        },
        {
          kind: 'close',
          text: 'close() 结束服务器的 stdin；握手时代的客户端状态机进入 closed。',
        },
        {
          kind: 'exit',
          text: '服务器读到 EOF 后退出。stdio 上的三个场景：握手；没有握手的 2026-07-28；以及凭一次应答在两者之间做出选择的探测。',
        },
      ],
    },
  },
  http: {
    intro:
      'Streamable HTTP：只有一个端点 /mcp。客户端发送的一切都走 POST，GET 打开一条流，用来接收服务器主动发送的消息，DELETE 结束会话。两条生命线；每对箭头是一条 TCP 连接，tap 把其中经过的字节原样转发（worker 主机运行同一个处理器，产生同样的 HTTP/1.1 字节）。可以问大家：在 stdio 上，管道就是会话。那么在 HTTP 上，是什么把一个会话串起来的？',
    steps: [
      {
        step: 'initialize',
        text: '向 /mcp 发送 POST initialize。打开请求看看：Accept 同时列出 application/json 和 text/event-stream（服务器两种方式都可能用来回答；客户端必须（MUST）两个都列，缺了的话服务器通常回答 406），Content-Type 是 application/json，Origin 会被检查（外来的 Origin 得到 403：DNS 重绑定），Content-Length 又出现了——本章的规则在 HTTP 中再现：它数的是字节。回答是 200、一个 JSON 对象，以及 Mcp-Session-Id 头。会话靠的是这个 ID，而不是管道：之后的每个请求都带着它。',
      },
      {
        step: 'initialized',
        text: 'notifications/initialized。JSON-RPC 从不回答通知，但 HTTP 对每个请求都要回答：202 Accepted，没有正文。指出两个新的头：Mcp-Session-Id，以及带着 initialize 中商定版本的 MCP-Protocol-Version。缺少会话 id，服务器回答 400；ID 是它不认识的，回答 404。',
      },
      {
        step: 'listen',
        text: '客户端自己打开了一个 GET，带 Accept: text/event-stream：这是独立流，服务器通过它发送不属于客户端任何请求的请求和通知。回答是 200 text/event-stream 和一个起始事件（一个 id、空的 data、retry），然后连接保持打开；打开的流现在是 1 条。不提供这种流的服务器回答 405，同样合法。',
      },
      {
        step: 'call',
        text: '在 _meta 中带 progressToken 的 tools/call。因为这次调用会收到通知，服务器用事件流而不是 JSON 回答：分块传输编码（每块前有一行十六进制的长度），里面是 SSE 事件：起始事件、notifications/progress，然后是 id 为 1 的结果，流随之结束。每个事件都有 id：连接断开的客户端用带 Last-Event-ID 的 GET 恢复，只会收到这条流的事件，绝不会收到别的流的。',
      },
      {
        step: 'delete',
        text: '带会话 id 的 DELETE：200，GET 流随会话一起结束。这个 id 从此失效：带着它的请求得到 404，收到 404 的客户端必须重新 initialize。在 stdio 上，关闭 stdin 就是告别。整个会话就是这些：initialize、202、监听流、流式的调用、DELETE。',
      },
    ],
    cards: {
      'missing-session':
        '先问大家：initialize 之后，一个不带 Mcp-Session-Id 的请求，服务器会怎么处理？400 Bad Request，什么也不处理。展示请求的字节：那个头根本不存在。',
      'stale-session':
        '会话保存在服务器的内存里。重启之后，它发出的每个 ID 都不再被认识：404 Not Found。规范告诉客户端该怎么做：不带 ID 重新 initialize。对比 400（没有 ID）和 404（ID 已经不存在）。',
      'foreign-origin':
        '讲讲 DNS 重绑定的故事：evil.example 先解析到攻击者，再解析到 127.0.0.1，浏览器仍以为自己在和 evil.example 通信。本地服务器必须检查 Origin 和 Host：在任何会话存在之前就回答 403。fetch 甚至无法设置这个 Origin；这里由页面自己写出字节。',
      'missing-accept':
        '这条规则是对客户端的：每个 POST 的 Accept 都必须（MUST）同时列出 application/json 和 text/event-stream，因为客户端无法预知服务器会选哪一种。规范没有规定违反时回什么状态码；服务器通常回 406 Not Acceptable（这里的服务器和 SDK 的都是），会话也不会开始。',
      'buffering-proxy':
        '让大家看块数：直接来自服务器时，进度事件在结果之前单独成块到达；经过缓冲代理时，一切都在最后挤在一块里到达，而 GET 流则什么也收不到。解决办法在部署上：对 MCP 端点关闭缓冲。',
      'ignores-retry':
        'SSE 轮询（2025-11-25）：发出带 id 的事件之后，服务器可以关闭连接而不结束流；它先发送 retry，客户端必须（MUST）等待这么久，再用带 Last-Event-ID 的 GET 重连。比较两个次数：不耐烦的客户端为了一个回答一次又一次地回来（卡片请服务器到第 20 次才把它的流保持打开）；耐心的客户端等 1000 毫秒后只回来一次，就拿到了进度和结果。最糟的是再也不回来的客户端：它会丢掉结果。',
    },
    modern: {
      intro:
        '2026-07-28 修订版里的 Streamable HTTP：只有 POST。没有 initialize，没有 Mcp-Session-Id，没有 GET 流，没有 DELETE，也没有可以据以续传的事件 id。每个 POST 各自独立：版本写在 MCP-Protocol-Version 头里，_meta 里也写同一个值。可以问大家：没有会话，服务器在两次请求之间还需要记住什么？',
      steps: [
        {
          step: 'discover',
          text: '带 server/discover 的 POST。打开请求：Mcp-Method 在头里写明方法（代理不读正文也能路由），MCP-Protocol-Version 必须和 _meta 里的版本一致，Accept 仍然列出两种类型。应答：200，带支持的版本和能力，没有 Mcp-Session-Id，因为根本没有会话可命名。',
        },
        {
          step: 'list',
          text: 'tools/list：又一个独立的 POST，有自己的 Mcp-Method 和完整的 _meta。结果带 ttlMs 和 cacheScope，客户端可以缓存这份列表，不必每次都问。',
        },
        {
          step: 'modern-call',
          text: 'tools/call：这次除了 Mcp-Method 还有 Mcp-Name，写明工具名（tools/call、resources/read、prompts/get 都要带）。在这个修订版里，流一旦断开请求就丢了：没有 Last-Event-ID，客户端用新的 id 重新发出请求。整段对话就是三个 POST，没有要打开的，也没有要关闭的。',
        },
      ],
    },
  },
  lessons: {
    '01-jsonrpc': {
      'three-shapes':
        '只有三种形态，靠“有哪些键”来区分：请求有 id 和 method；通知有 method，但根本没有 id 这个键；响应有 id，并且 result 和 error 二者恰好有一个。值为 undefined 的键直接省略，不要写成 params: undefined。',
      'error-codes':
        '失败的请求照样会得到应答：用 error 代替 result。-32700 表示“根本解析不了”，-32600 表示“解析出来了，但不是合法的消息”。请求的 id 读不出来时，JSON-RPC 要求写 id: null，MCP 则偏离了它（不是收窄）：错误响应省略 id。两种都要接受，发送时用 MCP 的写法。-32000 到 -32019 由实现自定义；2026-07-28 把 -32020 到 -32099 保留给规范。同样，JSON-RPC 允许 params 是数组、result 是任意值，MCP 只发对象。提前埋个伏笔：工具执行失败并不是 JSON-RPC 错误。',
      'parse-and-validate':
        'parseMessage 从不抛异常；它返回成功结果，或者错误码、原因，以及能读出来的 id，这样服务器仍然可以作出应答。数组是批量请求：MCP 只在 2025-03-26 版本里支持过，这个编解码器用 -32600 拒绝它。',
      classifiers: '陷阱在于真值判断：id 为 0 时 !message.id 为真，于是 id 为 0 的请求被当成通知，永远得不到应答。先让大家自己找出这个问题，再改用 \'id\' in message。',
      ids: 'id 可以是字符串或整数，而 1 和 "1" 是两个不同的 id。用 String(id) 当表的键，就会配错请求；idKey 会保留类型。SDK 客户端的第一个请求，id 就是 0。',
    },
    '02-frames': {
      'byte-stream':
        '管道交付的是分块，不是消息：可能是半帧、三帧，也可能从某个字符中间切开。分帧就是把边界找回来的规则。两种读取器形状相同：push(chunk) 返回这一块补全了的那些条目。',
      'content-length':
        '本章的分帧方式来自 LSP：一行 Content-Length 头，一个空行，然后是正好那么多字节。{"text":"你好"} 是 13 个字符、17 个字节。用 TextEncoder 编码，再数结果的长度；头部如果写成 13，后面的每一帧都会被带坏。',
      'frame-reader':
        '把还凑不成一帧的字节留着，然后循环：找头部的结尾，读出长度，等正文到齐，切出来，再来一遍。两个经典错误：把一个分块当成一帧，以及丢掉同一分块里紧跟在一帧后面的内容。只对完整的正文做解码。',
      'broken-input':
        '坏的头部和坏的 JSON 都变成条目，而不是异常，读取继续进行。最常见的元凶是往 stdout 打了一行 console.log：日志应该写到 stderr。时间允许的话，演示一下失败模式实验室里的“stdout 上的日志”卡片。',
      ndjson:
        '要明确地说：本章在这里讲错了。MCP 规范的 stdio 传输用的是换行分隔的 JSON（NDJSON），官方 SDK 写出的是 JSON.stringify(message) + "\\n"。这样做是安全的，因为 JSON.stringify 从不输出裸换行符。Content-Length 的服务器和 NDJSON 的客户端永远无法互相理解。',
      'line-reader':
        '先按字节 0x0A 切分，再解码：在 UTF-8 里，多字节字符的每个字节都不小于 0x80，所以 0x0A 一定是真正的换行。去掉一个 \\r，跳过空行，不是 JSON 的行报告为 bad-json。',
    },
    '03-client': {
      handshake:
        '在白板上画出状态机：new → initialized → ready → closed。connect() 必须等到 initialize 的应答之后，才能发送 notifications/initialized。顺便提一句：2026-07-28 版本取代了这种握手；本章讲的是握手时代，也就是 2025-11-25 及之前的版本。',
      'ready-gate': '在进入 ready 之前，listTools 和 callTool 会直接拒绝，一个字节都不写出去。规范把这条规矩定在客户端身上（收到 initialize 的响应前除了 ping 不发请求；notifications/initialized 必须发），没有规定服务器要拒绝：本章的服务器回 -32600，SDK 的 stdio 服务器照常回答。',
      'pairing-by-id':
        '慢工具可能比后发出的快工具更晚应答。写出请求之前先登记等待者，收到响应时只处理 id 对应的那一行。从没发过或已经回答过的 id 是服务器的错：报告出来，绝不能交给“最近的那个”等待者。对已超时请求的回答不算错（见下一页）。',
      'initialize-once': '同一时间只能有一个 initialize 在途：用一个标志，在 finally 里清除。失败后客户端仍停在 new，可以换一个新 id 重试；成功之后，再调用 initialize 就会被拒绝。',
      'version-negotiation':
        '客户端提出它知道的最新版本。服务器支持就原样回送，否则回答自己的最新版本。客户端如果不支持这个答复，就断开连接。也有服务器直接拒绝：回 -32602「Unsupported protocol version」，data 里带 supported 和 requested，这正是规范自己的例子；客户端把它当作 initialize 失败。',
      timeouts:
        '每个请求都有一个计时器；SDK 默认等 60 秒。超时后：删掉那一行，拒绝调用，并发送带 requestId 的 notifications/cancelled。回答仍可能到来：规范预料到这种竞态，要求悄悄忽略迟到的回答。这不是服务器的错，只有“从没发过”和“回答两次”才是。initialize 永远不会被取消。',
      closing:
        'close() 关闭 stdin；没有“再见”消息。这是规范关闭流程的第一步：接着等进程退出，不退出就发 SIGTERM，还不行再发 SIGKILL，这些由拥有进程的一方来做。用 ClientClosedError 拒绝所有未应答的请求，之后的调用也一律拒绝。如果服务器先退出，做同样的事，只是不再碰 stdin。调用两次 close 也不会出问题。',
      'official-sdk':
        '“检验我的客户端”会以 NDJSON 模式，让这个客户端连接一个用官方 SDK 1.32 搭建的服务器。要点出两处不同：未知工具返回的是 isError 结果，而不是 -32602 错误；也没有 initialized 门禁。另外，SDK 按请求完成的先后来回复：tools/list 可能比更早发出的 tools/call 先回来（SDK 1.32 通常如此，是调度上的偶然），只有按 id 配对才经得起。',
    },
    '04-server': {
      initialize: '应答里要有 protocolVersion、带 tools 的 capabilities 和 serverInfo。支持客户端的版本就原样回送，否则给出自己的最新版本，让客户端决定。也有服务器直接拒绝：回 -32602「Unsupported protocol version」并带上 data.supported/requested，客户端随后把 initialize 当作失败。',
      notifications:
        '永远不要应答通知，连未知的通知也不要回 -32601：没有人在等它，客户端只会收到一个无法配对的孤儿响应。客户端发给服务器的响应也一样：如果去应答它，就会变成无休止的来回回声。',
      'initialized-gate':
        'initialize 之前，只服务 initialize 和 ping；在应答之后、notifications/initialized 之前，工具请求得到 -32600。要坦白说：这道门禁是本章自己的选择。规范的规矩是写给客户端的，没有规定服务器要拒绝，也没有错误码；SDK 的 stdio 服务器完全不检查，它的 Streamable HTTP 回 -32000「Server not initialized」。有些客户端从不发送这条通知，所以才有 requireInitialized: false。',
      tools: 'tools/list 为每个工具返回 name、description 和 inputSchema。tools/call 接收 name 和 arguments；工具返回字符串时变成一个文本块，返回完整的 CallToolResult 时原样传回。',
      'error-layering':
        '这是关键规则。请求本身有错（没有工具名、未知工具）是 JSON-RPC -32602。工具存在但执行失败，是带 isError: true 的结果，模型读到后可以自行恢复。客户端应当把工具错误交给模型，可以把协议错误也交给模型：在我们的注册表里，isError 时模型拿到工具自己的文字，JSON-RPC 错误时只拿到客户端的异常信息。try/catch 要包住工具，而不是包住分发逻辑。从 2025-11-25 起，参数校验失败同样是 isError 结果。SDK 1.x 对未知工具返回 isError 结果，所以桥接代码两种情况都要能处理。',
      'ids-and-methods': 'id 原样回送：0 是真实的 id，"7" 仍然是字符串。未知方法返回 -32601。ping 任何时候都回 {}，即使在 initialize 之前。',
      'official-sdk':
        '“检验我的服务器”用官方 SDK 的 Client 来驱动这个服务器：connect、listTools、分别调用 echo、fail 和一个不存在的工具，再加上 ping。SDK 客户端遇到错误响应会抛出 McpError，所以未知工具必须以 -32602 被拒绝，而 fail 要正常返回 isError: true。在这两处，你的服务器都和 SDK 自带的不同：未知工具的回法，以及规范并不要求的本章门禁。',
    },
    '05-register-mcp-tools': {
      'ordinary-tools':
        '智能体的主循环只认识它的工具注册表。registerMcpTools 列出服务器的工具，每个工具注册成一个普通条目，所以审批门照样生效，主循环一行都不用改。',
      'schema-to-params':
        '每个属性对应一个参数，保持顺序，保留 type、required、description、enum 和 default。忽略 $schema 和 additionalProperties；“字符串或 null”的 anyOf，以及 type: ["null", "string"] 这样的类型列表，都是可为 null 的字符串。丢掉 required 是一个不声不响的 bug：模型会以为可以省略工具必需的参数。',
      'thin-forwarder':
        '执行器只负责转发：用服务器自己的工具名（绝不是加了前缀的名字）调用 callTool，再交给 mcpResultToText。它不做校验，也不重试；参数由服务器按自己的 inputSchema 检查。注册时不会调用服务器上的任何东西。',
      'failure-is-data':
        'mcpResultToText 生成模型要读的那一个字符串：文本块拼接起来，图片和音频用简短的占位符代替 base64，isError 为真时在前面加上 [tool error]。没有这个标记，“Division by zero”读起来就像一个正常的答案。',
      namespacing:
        '第六种失败模式：echo 服务器有 add，本地注册表里也有。重名必须明确地拒绝，并让注册表保持原样：先检查所有名字，再注册。加上 mcp__echo__ 这样的前缀，两者就能共存。规范说名字应当（SHOULD）是 1–128 个 [A-Za-z0-9_.-] 字符；模型 API 往往更严（不许有点号，最多 64 个字符），所以加了前缀的名字要短，也别带点号。',
      'risk-tiers':
        '远程工具要经过同样的审批门。注解只是来自一个未必可信的服务器的提示：readOnlyHint 为 true 给 auto，destructiveHint 为 false 给 suggest，其余一律 approve，包括完全没有注解的工具。',
      'chapter-loop':
        '现场演示：“本章闭环”视图会在 Worker 里运行学员的 registerMcpTools，面对真实的注册表和在线的 echo 服务器。不加前缀时，add 的重名必须被拒绝；加上 mcp__echo__ 后，两个 add 同时出现在表里。然后运行脚本化的一轮对话，停在 delete_file 的审批门前。',
    },
    '06-streamable-http': {
      'one-endpoint':
        '只有一个端点：客户端的每条消息都是一次独立的 POST，GET 打开服务器自己的流，DELETE 结束会话。很多文章讲的还是 2024-11-05 的 HTTP+SSE 传输（GET /sse 加一个单独的 /messages POST）：Streamable HTTP 已经取代了它。每个回答用 JSON 还是 SSE 由服务器决定，而不是客户端的 Accept。',
      'content-length':
        '练习 2 的伏笔在这里收回：本章放在 stdio 上的 Content-Length（对 MCP stdio 来说是错的，那里是一行一条 JSON）在 HTTP/1.1 里是真实存在的。在检查器里打开 initialize 的 POST：Content-Length 数的是 UTF-8 字节。再看一个 SSE 响应：没有 Content-Length，而是 Transfer-Encoding: chunked，每块前面是十六进制长度。',
      sse: 'SSE 是文本字段，不是 JSON 分帧：多行 data 用换行连接，空行派发事件，冒号后只去掉一个空格，CR、LF、CRLF 都算行尾（CRLF 可能被拆在两个分块里）。id 会保持，没有 data 也会更新；retry 只有全是数字才生效。起始事件就是一个 id 加空 data。',
      headers:
        '客户端必须（MUST）在 Accept 里同时列出 application/json 和 text/event-stream，Content-Type 用 JSON；否则服务器通常回 406 和 415。initialize 之后每个请求都带 MCP-Protocol-Version，服务器分配过会话 id 的话还带 Mcp-Session-Id，版本是 initialize 结果选定的，而不是客户端提出的。',
      responses:
        'POST 有三种回答：通知或响应得到没有响应体的 202；请求得到 JSON，或者一条 SSE 流，进度之类的相关通知先于结果到达。两种情况客户端都必须处理。请求遇到 HTTP 错误时要立刻拒绝调用方，不能让它等到超时。',
      session:
        '服务器可以（MAY）在 initialize 的响应上发出 Mcp-Session-Id（多数会发）。带着它的请求收到 404，说明会话没了（服务器重启）：不带 id 发新的 initialize，再发 initialized，然后把请求重发一次——只重发一次。GET 打开服务器自己的流（没有就回 405）；DELETE 结束会话。',
      resume:
        '只有可恢复的流才能恢复，提供与否由服务器决定（MAY，给事件加 id）。在这样的流上，断开连接并不结束流。客户端先等服务器给的 retry（这是 MUST），再带 Last-Event-ID 发 GET，用的是最后看到的 id 而不是第一个，否则消息会到两次。提供恢复的服务器只重放那一条流的事件。HTTP 故障卡“忽略 retry 的客户端”展示的就是重连风暴。',
      'in-the-app':
        'HTTP 步进器在每种宿主上都通过转发的 HTTP/1.1 字节运行的正是这些模块；一致性测试套件的 sse-retry 场景和 SDK 1.32.2 的 Streamable HTTP 服务器证明了它们。2026-07-28 修订版（练习 7）去掉了会话、GET 流和 Last-Event-ID。',
    },
    '07-stateless-era': {
      why: '会话很难扩展：在负载均衡后面，每个请求都必须落到持有它会话的那个实例上。2026-07-28 修订版去掉了会话（SEP-2575：没有 initialize，版本和能力随每个请求走；SEP-2567：没有 Mcp-Session-Id，改用显式句柄）。握手没有错：每个旧时代服务器至今仍在使用它。',
      envelope: '在检查器里展示一个新时代的 tools/list：_meta 在每个请求（包括探测）里都带着 protocolVersion、clientCapabilities 和 clientInfo。能力只列出客户端真有的处理函数；调用方自己的 _meta 键保留。',
      discover: '服务器必须（MUST）实现 server/discover；客户端可以（MAY）调用它，stdio 上的双时代客户端用它来探测。列出我方某个版本的 DiscoverResult：按那个版本走新时代。用哪个版本由我方的偏好顺序决定，而不是服务器的。',
      fallback: '退回：-32601、不是 DiscoverResult 的结果、stdio 上的沉默都意味着 legacy，同一条管道交给练习 3 的客户端去 initialize。-32020 和 -32021 是新时代服务器在拒绝：fail，绝不发它不懂的握手。HTTP 上的沉默意味着挂了，不是 legacy。DiscoverResult 总是说明服务器是新时代的：只有它列了握手时代版本才退回，否则 fail。',
      'version-retry': '-32022 列出服务器支持的版本。用其中第一个我方版本、新的 id 重试一次；第二次 -32022 交给调用方（onProbe 听到的仍是 retry，discover() 的结论是 fail）。列表里有我方没有的新时代版本：fail。只有握手时代版本、列表为空或格式不对：legacy，并说明这是本项目自己的解读，规范没有写明。',
      'result-type': '没有 resultType 就是 complete（更旧的服务器）。input_required 只能出现在 tools/call、resources/read、prompts/get 上；其他情况都是协议违规。',
      mrtr: 'MRTR 取代了服务器发给客户端的请求：用相同的键回答 inputRequests，逐字节送回 requestState（服务器可以（MAY）把状态放在里面；只用一次要由服务器自己保证），没被索要输入时不带 inputResponses: {}，作为新请求重试。回答不会活过它的请求；超过 maxInputRounds 就放弃。',
      wire: 'HTTP 上请求头是请求体的镜像：MCP-Protocol-Version（仍然必须带，且与 _meta 一致）、每个请求都有的 Mcp-Method、tools/call、resources/read、prompts/get 上的 Mcp-Name，以及 x-mcp-header 参数对应的 Mcp-Param-*；不一致就是 400 加 -32020。subscriptions/listen 取代了 GET 流和 resources/subscribe。roots/list_changed 没有了，tasks 移到了扩展里。列表、读取和 discover 的结果带 ttlMs（新鲜期）和 cacheScope（public 或 private）。',
      'in-the-app': '应用里的双时代客户端运行的正是这几个模块；互通测试让它们对接 SDK 2.4.0（新时代）和 SDK 1.32.2（退回握手），还有一致性测试套件中 2026-07-28 的客户端场景。',
    },
    '08-authorization': {
      why: '在白板上画出八步：带 WWW-Authenticate 的 401、受保护资源元数据、授权服务器元数据、客户端身份、浏览器去授权端点、带着 code、state 和 iss 重定向回来、令牌端点、每个请求带 Bearer。再讲每条规则防的三种攻击：发给别的服务器的令牌（受众）、被偷的授权码（PKCE）、来自错误服务器的授权码（iss）。服务器绝不转交收到的令牌：要用就自己去申请。',
      discovery: '两张有序列表，第一个有回答的胜出。质询里有 resource_metadata 时只用这一个 URL。否则 RFC 9728 把 well-known 名字插在主机和路径之间，再试根路径；RFC 8414 对带路径的签发者也这样插入，OpenID 再把它追加在后面作为第三个尝试。问大家为什么是插入而不是追加：一台主机，多个租户。不是 http(s) 的一律拒绝。',
      pkce: '校验码留在客户端；经过浏览器的只是它的 SHA-256，编码成不带填充的 base64url：43 个字符。没有校验码，偷到的授权码毫无用处。展示 RFC 7636 附录 B 的那一对。MCP 要求 S256，服务器没列出它时客户端拒绝继续。',
      'authorization-request': 'URL 里带 response_type=code、client_id、redirect_uri、S256 的质询、新的 state、与元数据一字不差的 resource，以及 scope；请求 offline_access 时加 prompt=consent（否则 OpenID 服务器会丢掉它）。回来时按顺序检查：state、iss（RFC 9207：否则就是混淆攻击）、然后 error、最后 code。先查 error 会放过伪造的错误。',
      'token-request': '令牌请求重复 redirect_uri，发送校验码和同一个 resource，令牌因此只绑定这一个服务器。凭据只走一条路：表单里的 client_id（none；client_secret_post 再加密钥），或 HTTP Basic 且表单里不放 client_id。Basic 要先对每部分做表单 URL 编码：带冒号的 id 否则会在错误的位置被切开。',
      'in-the-app': '授权流程和 authorizingExchange 调用的正是这些函数；一致性测试套件的客户端场景证明了它们（2025-11-25 的 14 个全部通过，2026-07-28 的 25 个授权场景全部通过）。演示：npm run auth-server、npm run mcp-http -- --auth=ISSUER、npm run mcp-client -- URL，打开打印出的 URL，点“允许”；之后调用 delete_file 会要求 tools:write（提升授权）。',
    },
  },
};
