// Speaker notes in English. Facts checked against ../shared/DESIGN.md section 2 and the lessons in
// exercises/*/content.en.md. notes.zh-CN.ts has the same steps; notes.node.test.ts keeps them in step.

import type { PresenterNotes } from './notes.ts';

export const notesEn: PresenterNotes = {
  handshake: {
    intro:
      'Three lanes: the client, the stdio pipe, the server. Nothing is running yet. The first step spawns the real echo server and has the client write initialize onto its stdin. Ask the room: what must the client send before it may call a tool?',
    steps: [
      {
        kind: 'initialize',
        text: 'The client wrote initialize with id 0 (the official SDK client starts at 0 too) offering protocolVersion 2025-11-25, its clientInfo and its capabilities. The arrow is drawn only once those bytes reached stdin. Open the frame: in Content-Length framing the header counts UTF-8 bytes of the body. The state machine is still in new: asking is not the same as being answered.',
      },
      {
        kind: 'receive',
        text: 'The server’s answer was waiting in the pipe; now the client has read it. Same id 0, so the pending table pairs it with the initialize row. The result carries protocolVersion (the server echoes a version it supports), capabilities with tools, and serverInfo. Only now does the client move to initialized.',
      },
      {
        kind: 'notify-initialized',
        text: 'notifications/initialized has no id: it is a notification, and nobody ever answers a notification, not even with an error. The client is now ready. The chapter’s server refuses tool requests before this notification with -32600; point out that the official SDK server is more lenient over stdio.',
      },
      {
        kind: 'list-tools',
        text: 'tools/list with id 1. A new row in the pending table, waiting. Only the id will pair the answer with this question: answers may come back in any order.',
      },
      {
        kind: 'receive',
        text: 'The list of tools: echo, add, delay_echo, fail, delete_file, each with a name, a description and an inputSchema. This is what a model is shown. Note add: the chapter’s local registry has one too, which is the name clash of exercise 5.',
      },
      {
        kind: 'call-tool',
        text: 'tools/call echo with “你好, MCP 👋”. Open this frame and count: 你 and 好 take 3 bytes each and the emoji takes 4, but JavaScript’s .length counts UTF-16 units. Content-Length must count bytes; a length counted in characters cuts the body short and breaks every frame after it.',
      },
      {
        kind: 'receive',
        text: 'The echo comes back as a result whose content is a list of blocks, here one text block. A tool that exists but fails would also come back as a result, with isError: true, so the model can read what went wrong. JSON-RPC errors are for requests that are wrong, such as an unknown tool (-32602).',
      },
      {
        kind: 'close',
        text: 'stdio has no goodbye message. close() ends the server’s stdin; the server sees end-of-file. The client is now closed, and any request still pending would be rejected.',
      },
      {
        kind: 'exit',
        text: 'The server read EOF and exited with code 0. That is the whole session: initialize, its answer, notifications/initialized, then requests paired by id. Step back with ← to replay any moment: nothing is sent again, the diagram is redrawn from the recorded bytes.',
      },
    ],
    scenario:
      'A failure-lab scenario is loaded, not the handshake. Name the failure mode first, let the room predict the symptom, then step and show where it appears: on the diagram, in the bytes, or in the state machine and pending table.',
  },
  eras: {
    modern: {
      intro:
        'The same pipe and the same echo server, in the 2026-07-28 revision: there is no handshake any more. No initialize, no notifications/initialized, no session; every request carries in _meta the protocol version and the client’s capabilities. The lines are NDJSON, the stdio framing of every revision. Ask the room: if nothing is negotiated up front, how does the server know which version each request speaks?',
      steps: [
        {
          kind: 'connect',
          text: 'connect() wrote server/discover, the one request every 2026-07-28 server MUST implement and a client MAY send first. Open it: _meta carries io.modelcontextprotocol/protocolVersion 2026-07-28 and io.modelcontextprotocol/clientCapabilities. This is a question, not a handshake: nothing waits for a notification afterwards.',
        },
        {
          kind: 'receive',
          text: 'The discover result lists the versions the server supports (supportedVersions), its capabilities and its serverInfo, and says resultType complete. The client is ready at once: no initialized notification follows. A server that does not speak the client’s version answers -32022 with data.supported and data.requested, and the client retries with a version both speak.',
        },
        {
          kind: 'list-tools',
          text: 'tools/list, and again the full _meta envelope: in 2026-07-28 every request stands alone, so each one repeats the version and the capabilities. The id still pairs the answer with the question.',
        },
        {
          kind: 'receive',
          text: 'The same five tools as in the handshake scene. New in this revision: the result says resultType complete, list results carry ttlMs and cacheScope (how long the list may be cached), and serverInfo rides in the result’s _meta instead of an initialize result.',
        },
        {
          kind: 'call-tool',
          text: 'tools/call echo with “你好, MCP 👋”. Same bytes-versus-characters lesson as before, now on an NDJSON line: the line ends at \n, so a newline inside a string must stay escaped. The _meta envelope comes along on this request too.',
        },
        {
          kind: 'receive',
          text: 'The echo comes back with resultType complete. The other value, input_required, is how a 2026-07-28 server asks the client for something (sampling, elicitation, roots): the client answers on a retry of the same request, instead of the server sending a request of its own.',
        },
        {
          kind: 'close',
          text: 'close() ends the server’s stdin, as in the handshake era: stdio still has no goodbye message. With no session there is nothing else to end.',
        },
        {
          kind: 'exit',
          text: 'The server read EOF and exited. Compare with the handshake scene: four arrows fewer at the start, and every request self-describing. The handshake is not wrong: every legacy server still speaks it, which is what the probe scene shows next.',
        },
      ],
    },
    probe: {
      intro:
        'A dual-era client meets a server that only knows the handshake. It cannot know in advance, so it asks: server/discover first, and on any answer that is not a recognised 2026-07-28 error it falls back to initialize over the same pipe. Ask the room: what will an old server answer to a method it has never heard of?',
      steps: [
        {
          kind: 'connect',
          text: 'connect() wrote server/discover with the 2026-07-28 _meta envelope: the probe. Nothing in the bytes says the server is old; the client finds out only from the answer.',
        },
        {
          kind: 'receive',
          text: 'The handshake-era server refuses the probe with -32600: the chapter’s server refuses anything before initialize (an SDK server answers -32601 Method not found). Neither is a 2026-07-28 error (-32022 would have meant “a version mismatch, retry”), so the client concludes the server is legacy and writes initialize at once.',
        },
        {
          kind: 'fallback',
          text: 'The fallback handshake: initialize went out right after the probe’s answer, its result came back with a handshake-era protocolVersion, and the client sent notifications/initialized. From here on the session is a handshake-era one: no _meta envelope on requests.',
        },
        {
          kind: 'list-tools',
          text: 'tools/list as in the handshake scene: plain params, no envelope. The client chose the era from the server’s answer; a dual-era server would instead pick the era from how the client opens (initialize means legacy for that process).',
        },
        {
          kind: 'receive',
          text: 'The list of tools, without resultType, ttlMs or serverInfo in _meta: an older server leaves them out, and a missing resultType means complete.',
        },
        {
          kind: 'call-tool',
          text: 'tools/call echo with “你好, MCP 👋”, exactly as a handshake-era client sends it. The learner’s exercise 7 client must make the same choice from the same bytes.',
        },
        {
          kind: 'receive',
          text: 'The echo result. The cost of the probe was one extra round trip at the start; the gain is one client that talks to both kinds of server.',
        },
        {
          kind: 'close',
          text: 'close() ends the server’s stdin; the handshake-era client state machine moves to closed.',
        },
        {
          kind: 'exit',
          text: 'The server read EOF and exited. Three scenes on stdio: the handshake, 2026-07-28 without one, and the probe that decides between them from one answer.',
        },
      ],
    },
  },
  http: {
    intro:
      'Streamable HTTP: one endpoint, /mcp. POST carries everything the client sends, GET opens a stream for what the server sends on its own, DELETE ends the session. Two lifelines; each pair of arrows is one TCP connection whose bytes the tap relayed as they crossed (the worker host serves the same handler, the same HTTP/1.1 bytes). Ask the room: on stdio the pipe was the session. What holds a session together over HTTP?',
    steps: [
      {
        step: 'initialize',
        text: 'POST /mcp with initialize. Open the request: Accept lists application/json and text/event-stream (the server may answer either way; the client MUST list both, and without them servers commonly answer 406), Content-Type is application/json, Origin is checked (a foreign one gets 403: DNS rebinding), and Content-Length is back, the chapter’s rule in HTTP: it counts bytes. The answer: 200, one JSON object, and the Mcp-Session-Id header (a server MAY assign one; this one does). That id, not a pipe, is the session: every later request carries it.',
      },
      {
        step: 'initialized',
        text: 'notifications/initialized. JSON-RPC never answers a notification, but HTTP answers every request: 202 Accepted, no body. Point at the two new headers: Mcp-Session-Id, and MCP-Protocol-Version with the version agreed in initialize. Without the session id the server answers 400; with one it does not know, 404.',
      },
      {
        step: 'listen',
        text: 'The client opened a GET by itself, with Accept: text/event-stream: the standalone stream, for requests and notifications of the server that belong to no request of the client. 200 text/event-stream, a priming event (an id, empty data, retry), and the connection stays open; open streams is now 1. A server without such a stream answers 405, which is just as legal.',
      },
      {
        step: 'call',
        text: 'tools/call with a progressToken in _meta. Because the call will get notifications, the server answers with an event stream instead of JSON: chunked transfer coding (a hex size line before each chunk), inside it SSE events: the priming event, notifications/progress, then the result with id 1, and the stream ends. Every event has an id: a client whose connection drops resumes with GET and Last-Event-ID and gets that stream’s events only, never another’s.',
      },
      {
        step: 'delete',
        text: 'DELETE with the session id: 200, and the GET stream ends with the session. The id is dead now: a request carrying it gets 404, and a client that gets 404 must initialize again. On stdio, closing stdin was the goodbye. That is the whole session: initialize, 202, the listening stream, a streamed call, DELETE.',
      },
    ],
    cards: {
      'missing-session':
        'Ask first: what does the server do with a request that has no Mcp-Session-Id after initialize? 400 Bad Request, and nothing is handled. Show the request bytes: the header is simply not there.',
      'stale-session':
        'Sessions live in the server’s memory. After a restart every id it gave out is unknown: 404 Not Found. The specification tells the client what to do: initialize again, without an id. Contrast 400 (no id) with 404 (an id that is gone).',
      'foreign-origin':
        'Tell the DNS rebinding story: evil.example resolves to the attacker, then to 127.0.0.1, and the browser still thinks it is talking to evil.example. A local server must check Origin and Host: 403 before any session exists. fetch cannot even set this Origin; the page writes the bytes itself.',
      'missing-accept':
        'The rule is the client’s: Accept MUST list both application/json and text/event-stream on every POST, because the client cannot know which of the two the server will choose. The spec names no status for breaking it; servers commonly answer 406 Not Acceptable (this one and the SDK’s do), and no session starts.',
      'buffering-proxy':
        'Have the room read the piece counts: straight from the server the progress event arrives in a piece of its own before the result; through a buffering proxy everything arrives in one piece at the end, and a GET stream delivers nothing at all. The fix is in the deployment: no buffering for the MCP endpoint.',
      'ignores-retry':
        'SSE polling (2025-11-25): after an event with an id the server may close the connection but not the stream; it sends retry first, and the client MUST wait that long, then GET with Last-Event-ID. Compare the two counts: the impatient client comes back again and again for one answer (the card asks the server to hold its stream only on the 20th time); the patient one comes back once after 1000 ms and gets progress and result. Worst of all is a client that never comes back: it loses the result.',
    },
    modern: {
      intro:
        'Streamable HTTP in the 2026-07-28 revision: POST only. No initialize, no Mcp-Session-Id, no GET stream, no DELETE, no event ids to resume from. Each POST stands alone: the version rides in the MCP-Protocol-Version header and, the same, in _meta. Ask the room: with no session, what does a server need to keep between two requests?',
      steps: [
        {
          step: 'discover',
          text: 'POST with server/discover. Open the request: Mcp-Method names the method in a header (a proxy can route without reading the body), MCP-Protocol-Version must match the _meta version, Accept still lists both types. The answer: 200 with the supported versions and capabilities, and no Mcp-Session-Id, because there is no session to name.',
        },
        {
          step: 'list',
          text: 'tools/list: another independent POST with its own Mcp-Method and the full _meta envelope. The result carries ttlMs and cacheScope, so a client may cache the list instead of asking each time.',
        },
        {
          step: 'modern-call',
          text: 'tools/call: now Mcp-Name joins Mcp-Method and names the tool (it does for tools/call, resources/read and prompts/get). If a stream breaks in this revision the request is lost: no Last-Event-ID, the client re-issues it with a new id. That is the whole conversation: three POSTs, nothing to open and nothing to close.',
        },
      ],
    },
  },
  lessons: {
    '01-jsonrpc': {
      'three-shapes':
        'Three shapes, told apart by which keys exist: a request has an id and a method, a notification has a method and no id key at all, a response has an id and exactly one of result or error. Leave undefined keys out rather than writing params: undefined.',
      'error-codes':
        'A failed request is still answered: error in place of result. -32700 means “could not parse”, -32600 “parsed, but not a message”. When the request id could not be read, JSON-RPC requires id null; MCP departs from that (it does not narrow it): the error response omits id. Accept both, send MCP’s form. -32000 to -32019 are implementation-defined; 2026-07-28 reserves -32020 to -32099 for the specification. Likewise JSON-RPC allows array params and any result; MCP sends objects. Foreshadow: a tool that fails is not a JSON-RPC error.',
      'parse-and-validate':
        'parseMessage never throws; it returns ok or the error code, a reason and the id when it can be read, so the server can still answer. Arrays are batches: MCP had them only in 2025-03-26, and this codec refuses them with -32600.',
      classifiers:
        'The trap is truthiness: !message.id is true for id 0, and a request with id 0 becomes a notification that is never answered. Ask the room to spot it, then use \'id\' in message.',
      ids: 'Ids are strings or integers, and 1 and "1" are different ids. String(id) as a map key pairs the wrong request. idKey keeps the type. The SDK client’s first request has id 0.',
    },
    '02-frames': {
      'byte-stream':
        'A pipe delivers chunks, not messages: half a frame, three frames, or a cut through the middle of a character. Framing is the rule that puts the boundaries back. Both readers share one shape: push(chunk) returns the items that chunk completed.',
      'content-length':
        'The chapter’s framing comes from LSP: a Content-Length header, a blank line, then that many bytes. {"text":"你好"} is 13 characters and 17 bytes. Encode with TextEncoder and count the result; a header that says 13 spoils every frame after it.',
      'frame-reader':
        'Keep what has not yet made a frame and loop: find the end of the header, read the length, wait for the whole body, cut, repeat. The two classic mistakes: one chunk treated as one frame, and dropping what follows a frame in the same chunk. Decode only whole bodies.',
      'broken-input':
        'Bad headers and bad JSON become items, not exceptions, and reading goes on. The usual culprit is a console.log on stdout: logs belong on stderr. Show the stdout-log card in the failure lab if there is time.',
      ndjson:
        'Say it plainly: the chapter is wrong here. The MCP specification’s stdio transport is newline-delimited JSON, and the official SDKs write JSON.stringify(message) + "\\n". That is safe because JSON.stringify never writes a raw newline. A Content-Length server and an NDJSON client never understand each other.',
      'line-reader':
        'Split on the byte 0x0A before decoding: in UTF-8 every byte of a multi-byte character is 0x80 or above, so 0x0A is always a real newline. Strip one \\r, skip blank lines, and report a line that is not JSON as bad-json.',
    },
    '03-client': {
      handshake:
        'Draw the state machine on the board: new → initialized → ready → closed. connect() must wait for the initialize answer before it sends notifications/initialized. Mention that the 2026-07-28 revision replaces this handshake; the chapter teaches the handshake era, up to 2025-11-25.',
      'ready-gate':
        'listTools and callTool refuse before ready, before a single byte is written. The spec puts this rule on the client (no requests but ping before the initialize response; notifications/initialized is a MUST) and names no server-side refusal: the chapter’s server answers -32600, the SDK’s stdio server just answers.',
      'pairing-by-id':
        'A slow tool answers after a fast one that was sent later. File the waiter before writing, settle exactly the row whose id the response carries. An id never sent, or answered twice, is the server’s mistake: report it, never hand it to the latest waiter. An answer to a request that timed out is not a mistake (next slide).',
      'initialize-once':
        'One initialize in flight at a time: a flag cleared in finally. After a failure the client stays new and may retry with a fresh id; after a success, initialize is refused.',
      'version-negotiation':
        'The client offers its latest version. The server echoes it if it supports it, otherwise it answers with its own latest. If the client cannot speak the answer, it disconnects. Some servers refuse instead: -32602 “Unsupported protocol version” with data.supported and data.requested, the spec’s own example; the client treats that as a failed initialize.',
      timeouts:
        'Each request gets a timer; the SDK waits 60 s. On expiry: drop the row, reject, and send notifications/cancelled with the requestId. The answer may still come: the spec expects that race and says to ignore the late answer quietly. It is not the server’s fault; only never-sent and answered-twice are. initialize is never cancelled.',
      closing:
        'close() ends stdin; there is no goodbye message. That is step one of the spec’s shutdown: then wait for the process to exit, SIGTERM if it does not, SIGKILL if SIGTERM does not help; the process owner does those. Reject every pending request with ClientClosedError and refuse later calls. If the server exits first, do the same without touching stdin. Closing twice is harmless.',
      'official-sdk':
        'Check my client runs this client in NDJSON mode against a server built with the official SDK 1.32. Two differences to name: an unknown tool comes back as an isError result, not the -32602 error, and there is no initialized gate. Also, the SDK answers in the order requests finish: tools/list may come back before an earlier tools/call (with SDK 1.32 it usually does, a scheduling accident), so only pairing by id survives.',
    },
    '04-server': {
      initialize:
        'Answer with protocolVersion, capabilities with tools, and serverInfo. Echo a supported version, otherwise offer your latest and let the client decide. Some servers refuse instead, with -32602 “Unsupported protocol version” and data.supported/requested; the client then treats initialize as failed.',
      notifications:
        'Never answer a notification, not even an unknown one with -32601: nobody waits for it, so the client gets an orphan it cannot pair. The same goes for a response sent to the server: answering it would start an endless echo.',
      'initialized-gate':
        'Before initialize only initialize and ping; between the answer and notifications/initialized, tool requests get -32600. Be honest: this gate is the chapter’s own choice. The spec’s rule is on the client and names no server-side refusal or code; the SDK’s stdio server has no check at all, its Streamable HTTP answers -32000 “Server not initialized”. Some clients never send the notification, hence requireInitialized: false.',
      tools:
        'tools/list returns name, description and inputSchema per tool. tools/call takes name and arguments; a string result becomes one text block, a whole CallToolResult passes through unchanged.',
      'error-layering':
        'The key rule. A wrong request (no name, unknown tool) is JSON-RPC -32602. A tool that exists but fails is a result with isError: true, so the model reads it and recovers. Clients SHOULD pass tool errors to the model and MAY pass protocol errors: in our registry the model gets the tool’s own text for isError, only the client’s exception string for a JSON-RPC error. Wrap the tool in try/catch, not the dispatch. Since 2025-11-25 bad arguments are an isError result too. SDK 1.x answers an unknown tool with isError, so bridges must cope with both.',
      'ids-and-methods':
        'Echo the id exactly as it came: 0 is a real id and "7" stays a string. Unknown methods get -32601. ping answers {} at any time, even before initialize.',
      'official-sdk':
        'Check my server drives this server with the official SDK’s Client: connect, listTools, callTool for echo, for fail and for a tool that does not exist, and ping. The SDK client throws McpError on an error response, so the unknown tool must reject with -32602 while fail resolves with isError: true. Your server differs from the SDK’s own in both places: the unknown tool, and the chapter’s gate, which the spec does not require.',
    },
    '05-register-mcp-tools': {
      'ordinary-tools':
        'The agent’s main loop only knows its registry. registerMcpTools lists the server’s tools and registers one ordinary entry per tool, so the approval gate still applies and the loop does not change by a single line.',
      'schema-to-params':
        'One parameter per property, in order, keeping type, required, description, enum and default. Ignore $schema and additionalProperties; anyOf string-or-null is a nullable string. Losing required is a quiet bug: the model thinks it may leave out an argument the tool needs.',
      'thin-forwarder':
        'The executor only forwards: callTool with the server’s own name, never the prefixed one, then mcpResultToText. It does not validate or retry; the server checks arguments against its inputSchema. Registering calls nothing on the server.',
      'failure-is-data':
        'mcpResultToText builds the one string the model reads: text blocks joined, short placeholders for images and audio instead of base64, and [tool error] in front when isError is true. Without the marker, “Division by zero” reads like an answer.',
      namespacing:
        'The sixth failure mode: the echo server has add, and so does the local registry. The clash must be refused, loudly, leaving the registry as it was: check every name first, then register. A prefix such as mcp__echo__ lets both live. The spec says names SHOULD be 1–128 characters of [A-Za-z0-9_.-]; model APIs are often stricter (no dot, at most 64), so keep prefixed names short and dot-free.',
      'risk-tiers':
        'Remote tools pass the same approval gate. Annotations are hints from a server you may not trust: readOnlyHint true gives auto, destructiveHint false gives suggest, everything else approve, including a tool with no annotations at all.',
      'chapter-loop':
        'Demo time: the Chapter loop view runs the learner’s registerMcpTools in a worker against a real registry and the live echo server. Without a prefix the add clash must be refused; with mcp__echo__ both adds sit side by side. Then run the scripted turn and stop at the approval gate on delete_file.',
    },
    '06-streamable-http': {
      'one-endpoint':
        'One endpoint: every client message is its own POST, a GET opens the server’s own stream, DELETE ends the session. Many articles still describe the 2024-11-05 HTTP+SSE transport (GET /sse plus a separate /messages POST): Streamable HTTP replaced it. The server, not the client’s Accept, picks JSON or SSE for each answer.',
      'content-length':
        'The payoff for exercise 2: the Content-Length the chapter put on stdio (wrong for MCP stdio, which is one JSON per line) is real here, in HTTP/1.1. Open the inspector on the initialize POST: Content-Length counts UTF-8 bytes. Then an SSE response: no Content-Length, Transfer-Encoding: chunked, a hex size before each chunk.',
      sse: 'SSE is text fields, not JSON framing: data lines joined with a newline, a blank line dispatches, exactly one space after the colon is dropped, CR, LF and CRLF all end lines (a CRLF can be split across chunks). The id persists and moves even without data; retry only when it is all digits. The priming event is an id with empty data.',
      headers:
        'The client MUST list both application/json and text/event-stream in Accept and send Content-Type JSON; servers commonly answer 406 and 415 otherwise. After initialize every request carries MCP-Protocol-Version, and Mcp-Session-Id if the server assigned one, and the version is the one the initialize result chose, not the one the client offered.',
      responses:
        'Three answers to a POST: 202 with no body for a notification or response; JSON for a request; or an SSE stream where related notifications such as progress come before the result. The client MUST handle both kinds. An HTTP error for a request must reject the caller at once, not leave it to time out.',
      session:
        'A server MAY hand out Mcp-Session-Id on the initialize response (most do). 404 for a request that carried it means the session is gone (a restart): send a new initialize without the id, then initialized, then the request once more — and only once. GET opens the server’s own stream (405 if none); DELETE ends the session.',
      resume:
        'Resuming works only on a resumable stream, which a server MAY offer (ids on its events). There, dropping the connection does not end the stream. The client waits the server’s retry (a MUST), then GETs with Last-Event-ID, the last id it saw, not the first, or messages arrive twice. A server that offers resumption replays only that stream’s events. The HTTP failure card “A client that ignores retry” shows the reconnect storm.',
      'in-the-app':
        'The HTTP stepper runs exactly these modules over relayed HTTP/1.1 bytes on every host; the conformance suite’s sse-retry scenario and SDK 1.32.2’s Streamable HTTP server prove them. The 2026-07-28 revision (exercise 7) drops sessions, the GET stream and Last-Event-ID.',
    },
    '07-stateless-era': {
      why: 'Sessions are hard to scale: behind a load balancer every request must reach the instance that holds its session. The 2026-07-28 revision drops them (SEP-2575: no initialize, version and capabilities on every request; SEP-2567: no Mcp-Session-Id, explicit handles instead). The handshake is not wrong: every legacy server still uses it.',
      envelope: 'Show a modern tools/list in the inspector: _meta carries protocolVersion, clientCapabilities and clientInfo on every request, the probe included. Capabilities list exactly the handlers the client has; the caller’s own _meta keys stay.',
      discover: 'Servers MUST implement server/discover; clients MAY call it, and a dual-era client on stdio uses it as the probe. A DiscoverResult listing one of our versions: modern at that version. Our order of preference picks the version, not the server’s.',
      fallback: 'The fallback: -32601, a result that is not a DiscoverResult or silence on stdio mean legacy, and the same pipe goes to the exercise-3 client for initialize. -32020 and -32021 are a modern server refusing: fail, never a handshake it does not speak. Silence over HTTP means down, not legacy. A DiscoverResult always means a modern server: fall back only if it lists a handshake-era version, else fail.',
      'version-retry': '-32022 lists what the server supports. Retry once with the first of ours it lists, with a new id; a second -32022 goes to the caller (onProbe still hears retry; discover() settles on fail). A modern version we lack in the list: fail. Only handshake versions, an empty or malformed list: legacy, and say that is this project’s reading, not the spec’s text.',
      'result-type': 'resultType missing means complete (an older server). input_required only on tools/call, resources/read, prompts/get; anything else is a protocol violation.',
      mrtr: 'MRTR replaces server-to-client requests: answer inputRequests under the same keys, echo requestState byte for byte (the server MAY keep state there; single use is for the server to enforce), no inputResponses: {} when nothing was asked, retry as a new request. Answers never outlive their request; give up after maxInputRounds.',
      wire: 'Over HTTP the headers mirror the body: MCP-Protocol-Version (still required, must match _meta), Mcp-Method always, Mcp-Name for tools/call, resources/read, prompts/get, Mcp-Param-* for x-mcp-header arguments; a mismatch is 400 with -32020. subscriptions/listen replaces the GET stream and resources/subscribe. roots/list_changed is gone, tasks moved to an extension. List, read and discover results carry ttlMs (freshness) and cacheScope (public or private).',
      'in-the-app': 'The app’s dual-era client runs exactly these modules; the interop tests run them against SDK 2.4.0 (modern) and SDK 1.32.2 (fallback), and the conformance suite’s 2026-07-28 client scenarios.',
    },
    '08-authorization': {
      why: 'Draw the eight steps on the board: 401 with WWW-Authenticate, Protected Resource Metadata, authorization server metadata, client identity, the browser to the authorization endpoint, the redirect back with code, state and iss, the token endpoint, Bearer on every request. Then the three attacks each rule answers: a token for another server (audience), a stolen code (PKCE), a code from the wrong server (iss). A server never forwards a token it received: it gets its own.',
      discovery: 'Two ordered lists, first answer wins. resource_metadata in the challenge is the only URL when present. Otherwise RFC 9728 inserts the well-known name between host and path, then the root; RFC 8414 does the same for an issuer with a path, and OpenID appends it as a third try. Ask the room why inserting, not appending: one host, many tenants. Anything but http(s) is refused.',
      pkce: 'The verifier stays with the client; only SHA-256 of it travels through the browser, as base64url without padding: 43 characters. A stolen code is useless without the verifier. Show RFC 7636 Appendix B’s pair. MCP requires S256, and a client refuses a server that does not list it.',
      'authorization-request': 'The URL carries response_type=code, client_id, redirect_uri, the challenge with S256, a fresh state, the resource exactly as the metadata wrote it, and the scope; prompt=consent when asking for offline_access (OpenID servers drop it otherwise). On the way back, check in order: state, iss (RFC 9207: a mix-up otherwise), then error, then code. Checking error first would let a forged error through.',
      'token-request': 'The token request repeats redirect_uri, sends the verifier and the same resource, so the token is bound to that one server. Credentials go one way only: client_id in the form (none, client_secret_post with the secret), or HTTP Basic with no client_id in the form. Basic form-urlencodes each part first: an id with a colon would split in the wrong place.',
      'in-the-app': 'The flow and authorizingExchange call exactly these functions; the conformance suite’s client scenarios prove them (14 of 14 at 2025-11-25, 25 of 25 auth scenarios at 2026-07-28). Demo: npm run auth-server, npm run mcp-http -- --auth=ISSUER, npm run mcp-client -- URL, open the printed URL, click Allow; calling delete_file then asks for tools:write (step-up).',
    },
  },
};
