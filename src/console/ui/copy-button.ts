import { h } from './dom.ts';

/** A button copying `text` with one tap (a number a customer quotes), saying so for a moment. */
export function copyButton(text: string, label: string): HTMLButtonElement {
  const button: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'copy',
      'aria-label': `${label}をコピー`,
      onClick: async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        button.textContent = 'コピーしました';
        setTimeout(() => (button.textContent = 'コピー'), 1500);
      },
    },
    'コピー',
  );
  return button;
}
