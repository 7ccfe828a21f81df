// The browser edges of a saved file (a progress file, a trace, a frame): saving it as a download,
// and reading a chosen file.

/** Saves `data` as a download named `fileName` (an object URL on a temporary link: no library, no server round trip). */
export function downloadFile(fileName: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
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

/** Saves `text` as a download named `fileName`. */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  downloadFile(fileName, text, type);
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
