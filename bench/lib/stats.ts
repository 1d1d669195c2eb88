import { request } from 'node:http';

/** The value below which a share `p` of `values` falls, to a tenth. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A GET's body, through node:http (no pooled connection kept, as a first visit). */
export function getText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
}
