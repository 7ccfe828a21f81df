// The one page of the authorization server a person sees: which client asks, for which MCP server
// (the resource), with which scopes, and two buttons. "Allow" signs the learner in and records a
// grant of exactly what was asked; "Deny" sends the client `access_denied`. English or Chinese by
// the request's ui_locales, else the browser's Accept-Language, with a link to the other.
//
// The page runs no script and loads nothing (CSP default-src 'none'), may not be framed (a consent
// click cannot be hijacked), and its form is accepted only from this server's own origin.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

export const INTERACTION_PREFIX = '/interaction/';
const MAX_FORM_BYTES = 4096;
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

type Lang = 'en' | 'zh-CN';

const TEXT = {
  en: {
    title: 'Allow access?',
    asks: 'asks to use this MCP server for you:',
    scopes: 'with these scopes:',
    noScopes: '(no scope)',
    refresh: 'and to stay signed in (offline_access: a refresh token).',
    who: 'You are signed in as',
    allow: 'Allow',
    deny: 'Deny',
    other: '中文',
    gone: 'This sign-in has expired or was already finished. Start again from the client.',
    badOrigin: 'Refused: the form was not sent from this page.',
  },
  'zh-CN': {
    title: '允许访问？',
    asks: '请求代表你使用这个 MCP 服务器：',
    scopes: '所需权限范围（scope）：',
    noScopes: '（无）',
    refresh: '并保持登录（offline_access：刷新令牌）。',
    who: '当前身份：',
    allow: '允许',
    deny: '拒绝',
    other: 'English',
    gone: '这次登录已过期或已完成。请回到客户端重新开始。',
    badOrigin: '已拒绝：表单不是从本页提交的。',
  },
} as const;

export interface InteractionOptions {
  issuer: string;
  /** Other origins whose form posts count as the person's (a page that plays their browser). */
  trustedOrigins: readonly string[];
  account: string;
  log(line: string): void;
}

export async function handleInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse, options: InteractionOptions): Promise<void> {
  const url = new URL(request.url ?? '/', options.issuer);
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    return page(response, 400, TEXT[languageOf(url, undefined, request)].gone, languageOf(url, undefined, request));
  }
  const lang = languageOf(url, details.params.ui_locales, request);
  const text = TEXT[lang];
  if (url.pathname !== `${INTERACTION_PREFIX}${details.uid}`) return page(response, 404, text.gone, lang);

  // The one local learner needs no password: the login step passes at once, and the page the
  // person sees is the decision that matters, the consent.
  if (details.prompt.name === 'login') {
    return provider.interactionFinished(request, response, { login: { accountId: options.account } }, { mergeWithLastSubmission: false });
  }
  if (request.method === 'GET') {
    const client = await provider.Client.find(String(details.params.client_id));
    return page(response, 200, consentForm(details, client?.clientName, options.account, lang, url.pathname), lang);
  }
  if (request.method !== 'POST') return page(response, 405, text.gone, lang);
  // A form from anywhere else is a forged consent (CSRF): browsers send Origin on every POST.
  const origin = request.headers.origin ?? '';
  if (origin !== new URL(options.issuer).origin && !options.trustedOrigins.includes(origin)) return page(response, 403, text.badOrigin, lang);
  const form = await readForm(request);
  const client = String(details.params.client_id);
  if (form?.get('decision') === 'deny') {
    options.log(`the learner denied client ${client}`);
    return provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'the person denied the request' }, { mergeWithLastSubmission: false });
  }
  if (form?.get('decision') !== 'allow') return page(response, 400, text.gone, lang);

  // Grant exactly what the provider found missing: OpenID scopes (openid, offline_access) and each
  // resource's scopes.
  const grant = (details.grantId !== undefined ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId: options.account, clientId: client });
  const missing = missingOf(details);
  if (missing.oidc.length > 0) grant.addOIDCScope(missing.oidc.join(' '));
  for (const [resource, scopes] of Object.entries(missing.resources)) grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  options.log(`the learner allowed client ${client}: ${[...missing.oidc, ...Object.values(missing.resources).flat()].join(' ') || 'no new scope'}`);
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What the provider found missing: OpenID scopes, and scopes per resource. */
function missingOf(details: Details): { oidc: string[]; resources: Record<string, string[]> } {
  const found = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  return { oidc: found.missingOIDCScope ?? [], resources: found.missingResourceScopes ?? {} };
}

function requested(details: Details): string[] {
  return typeof details.params.scope === 'string' ? details.params.scope.split(' ').filter((item) => item !== '') : [];
}

function resourcesOf(resource: unknown): string[] {
  if (typeof resource === 'string') return [resource];
  return Array.isArray(resource) ? resource.filter((item): item is string => typeof item === 'string') : [];
}

function consentForm(details: Details, clientName: string | undefined, account: string, lang: Lang, path: string): string {
  const text = TEXT[lang];
  const scope = requested(details);
  const oidc = scope.filter((item) => item === 'openid' || item === 'offline_access');
  const tools = scope.filter((item) => item !== 'openid' && item !== 'offline_access');
  const client = String(details.params.client_id);
  const resources = resourcesOf(details.params.resource);
  const other: Lang = lang === 'en' ? 'zh-CN' : 'en';
  // The name is the client's own claim: the id beside it is what the server knows it by.
  const who = clientName === undefined ? `<strong>${escape(client)}</strong>` : `<strong>${escape(clientName)}</strong> (<code>${escape(client)}</code>)`;
  return `<p>${who} ${text.asks}</p>
<ul>${resources.map((resource) => `<li><code>${escape(resource)}</code></li>`).join('')}</ul>
<p>${text.scopes} ${tools.length > 0 ? tools.map((scope) => `<code>${escape(scope)}</code>`).join(' ') : text.noScopes}</p>
${oidc.includes('offline_access') ? `<p>${text.refresh}</p>` : ''}
<p>${text.who} <code>${escape(account)}</code></p>
<form method="post" action="${escape(path)}">
<button name="decision" value="allow" autofocus>${text.allow}</button>
<button name="decision" value="deny">${text.deny}</button>
</form>
<p><a href="${escape(path)}?lang=${other}" lang="${other}">${text.other}</a></p>`;
}

function page(response: ServerResponse, status: number, body: string, lang: Lang): void {
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${TEXT[lang].title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.4rem 1.2rem;margin-right:.5rem}code{overflow-wrap:anywhere}</style>
</head><body><h1>${TEXT[lang].title}</h1>
${status === 200 ? body : `<p role="alert">${body}</p>`}
</body></html>
`;
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    // Not no-referrer: with it Chromium sends `Origin: null` on the form's POST, and the origin
    // check below could not tell this page from any other. same-origin still tells the client
    // (another origin) nothing.
    'referrer-policy': 'same-origin',
  });
  response.end(html);
}

/** ?lang= (the page's own switch) first, then ui_locales (OpenID), then Accept-Language. */
function languageOf(url: URL, uiLocales: unknown, request: IncomingMessage): Lang {
  const chosen = url.searchParams.get('lang');
  if (chosen === 'en' || chosen === 'zh-CN') return chosen;
  const wanted = `${typeof uiLocales === 'string' ? uiLocales : ''} ${request.headers['accept-language'] ?? ''}`;
  const first = /\b(en|zh)\b/i.exec(wanted);
  return first?.[1]?.toLowerCase() === 'zh' ? 'zh-CN' : 'en';
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
