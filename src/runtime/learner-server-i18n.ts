// The page-facing words about running the learner's server in a live host, English and Simplified
// Chinese with identical keys, to be merged under `liveServer` (see the lead's hook-up). Protocol
// and program names stay in English.

export const liveServerEn = {
  unsupported: {
    'shared-bridge':
      'This bridge is shared on the network (npm start --host), so it never runs code sent by a page: Check my server needs a loopback bridge. Run `npm start` on your own machine, or use the in-browser worker.',
    'not-enabled':
      'This bridge runs code sent by a page only when started with `npm start -- --learner-code-in-node`; your server runs in the in-browser worker instead.',
    'no-sandbox':
      'This bridge was started with --learner-code-in-node, but its machine has no sandbox for learner code (bubblewrap), so your server runs in the in-browser worker instead.',
  },
  loadFailed: 'Your server did not load: {{detail}}',
  stuck: 'Your server ran for more than {{seconds}} s without pausing, so it was stopped. Look for a loop that never ends.',
};

export const liveServerZhCN: typeof liveServerEn = {
  unsupported: {
    'shared-bridge':
      '这个 bridge 是在局域网上共享的（npm start --host），它从不运行网页发来的代码，所以“检查我的 server”只能在本机回环地址上的 bridge 里运行。请在你自己的电脑上运行 `npm start`，或者改用浏览器内的 Worker。',
    'not-enabled':
      '只有用 `npm start -- --learner-code-in-node` 启动时，这个 bridge 才会运行网页发来的代码；所以你的 server 改在浏览器内的 Worker 里运行。',
    'no-sandbox':
      '这个 bridge 虽然用 --learner-code-in-node 启动，但所在的机器没有运行学员代码所需的沙箱（bubblewrap），所以你的 server 改在浏览器内的 Worker 里运行。',
  },
  loadFailed: '你的 server 没能加载：{{detail}}',
  stuck: '你的 server 连续运行超过 {{seconds}} 秒都没有停下来，已被终止。检查一下有没有永远不会结束的循环。',
};
