// Saves data as a download: an object URL on a temporary link (no library, no server round trip).

export function downloadFile(name: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on a later turn: Chromium starts the download from the click, Firefox a little later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
