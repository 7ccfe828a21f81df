// The two browser edges of a progress file: saving text as a download, and reading a chosen file.

/** Saves `text` as a download named `fileName` (an object URL on a temporary link). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: Chromium starts the download from the click, Firefox a little later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copies text; false when the page may not (no permission, not a secure context). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Removes a `#share=…` hash from the address without a reload or a history entry. */
export function clearAddressHash(): void {
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
}
