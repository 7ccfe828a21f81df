// Matching a URI against a resource template with `{name}` placeholders (RFC 6570 level 1, the
// form MCP servers use: `test://template/{id}/data`). A placeholder matches one or more characters
// other than "/", so `{id}` never swallows a path segment boundary.

export function matchUriTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/\{([A-Za-z0-9_]+)\}|[.*+?^${}()|[\]\\]/g, (match, name: string | undefined) => {
    if (name === undefined) return `\\${match}`;
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${pattern}$`).exec(uri);
  if (found === null) return null;
  const variables: Record<string, string> = {};
  names.forEach((name, i) => {
    variables[name] = decodeURIComponentSafe(found[i + 1]!);
  });
  return variables;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%" is kept as typed
  }
}
