import { h } from './dom.ts';

/** Saves `blob` under `name` through the browser's download, as a link would. */
export function saveFile(blob: Blob, name: string): void {
  const link = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
