import { ApiError } from '../../../client/tenpo-client.ts';
import { h } from '../../ui/dom.ts';
import type { ScreenContext } from '../../screen.ts';

/** Typing pauses this long before the preview is asked for: one request per pause, not per key. */
const PREVIEW_DELAY_MS = 400;

/**
 * The email as the customer would receive it, beside the editor: subject, text and HTML, rendered by
 * the service (the preview route) with a real product and a sample customer. The HTML is shown in a
 * sandboxed frame: it is the service's escaped output, and even so it may run nothing and reach
 * nothing of the console. A text the service refuses leaves the last good preview, marked as out of
 * date, and hands that text to `onChecked` for its problems to be shown at their fields; a text
 * rendered calls it with none.
 */
export function templatePreview(
  context: ScreenContext,
  onChecked: (refused?: { subject: string; body: string }) => void,
): { element: HTMLElement; show(text: { kind: string; subject: string; body: string }, at?: 'now'): void } {
  const state = h('p', { class: 'preview-state', role: 'status' });
  const subject = h('p', { class: 'preview-subject', id: 'preview-subject' });
  const text = h('pre', { class: 'preview-text', id: 'preview-text', tabindex: 0 });
  const html: HTMLIFrameElement = h('iframe', { class: 'preview-html', id: 'preview-html', sandbox: true, title: 'HTML 版のプレビュー' });
  const element = h(
    'section',
    { class: 'template-preview', 'aria-label': 'プレビュー' },
    h('div', { class: 'preview-head' }, h('h2', {}, 'プレビュー'), state),
    h('div', { class: 'preview-part subject-part' }, h('span', { class: 'part-label' }, '件名'), subject),
    h('div', { class: 'preview-part' }, h('span', { class: 'part-label' }, 'テキスト版'), text),
    h('div', { class: 'preview-part' }, h('span', { class: 'part-label' }, 'HTML 版'), html),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;

  async function render(request: { kind: string; subject: string; body: string }): Promise<void> {
    const mine = ++latest;
    element.setAttribute('aria-busy', 'true');
    state.textContent = '更新中…';
    state.className = 'preview-state';
    try {
      const answer = await context.api.call('/api/admin/email-templates/preview', request);
      if (mine !== latest) return;
      subject.textContent = answer.subject;
      text.textContent = answer.text;
      html.srcdoc = answer.html;
      element.classList.remove('stale');
      state.textContent = '';
      onChecked();
    } catch (error) {
      if (mine !== latest) return;
      element.classList.add('stale');
      state.className = 'preview-state error';
      if (error instanceof ApiError && error.code === 'invalid_template') {
        state.textContent = '入力内容に誤りがあるため、プレビューは直前の内容のままです。';
        onChecked(request);
      } else {
        state.textContent = 'プレビューを表示できませんでした。';
        context.fail(error);
      }
    } finally {
      if (mine === latest) element.removeAttribute('aria-busy');
    }
  }

  return {
    element,
    show(request, at) {
      clearTimeout(timer);
      if (at === 'now') return void render(request);
      state.textContent = '入力中…';
      timer = setTimeout(() => void render(request), PREVIEW_DELAY_MS);
    },
  };
}
