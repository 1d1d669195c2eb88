import { ApiError } from '../../../client/tenpo-client.ts';
import { errorMessage } from '../../api/errors.ts';
import { h } from '../../ui/dom.ts';
import type { ScreenContext } from '../../screen.ts';

/** The address typed last, kept for this tab: staff test to the same inbox again and again. */
let lastAddress = '';

/**
 * 「テスト送信」: the text in the editor (saved or not) sent with the preview's sample values to an
 * address staff type, at once through the shop's email provider; its answer is said beside the
 * button: sent, not sent and why (the provider's reason), or logged because no provider is set up.
 */
export function testSender(
  context: ScreenContext,
  draft: () => { kind: string; subject: string; body: string },
  onRefused: (text: { subject: string; body: string }) => void,
): HTMLElement {
  const to = h('input', {
    type: 'email',
    id: 'test-send-to',
    value: lastAddress,
    maxlength: 254,
    autocomplete: 'email',
    placeholder: 'staff@example.com',
    'aria-describedby': 'test-send-to-error test-send-result',
  });
  const toError = h('p', { class: 'field-error', id: 'test-send-to-error', hidden: true });
  const result = h('p', { class: 'test-send-result', id: 'test-send-result', role: 'status' });
  const button: HTMLButtonElement = h('button', { type: 'submit' }, 'テスト送信');
  const say = (text: string, tone: 'success' | 'error') => {
    result.textContent = text;
    result.className = `test-send-result ${tone}`;
  };

  async function send(): Promise<void> {
    const address = to.value.trim();
    toError.hidden = true;
    if (!address) {
      toError.textContent = '送信先のメールアドレスを入力してください';
      toError.hidden = false;
      return to.focus();
    }
    lastAddress = address;
    button.disabled = true;
    button.textContent = '送信中…';
    say('', 'success');
    const sent = draft();
    try {
      const { status } = await context.api.call('/api/admin/email-templates/test-send', { ...sent, to: address });
      if (status === 'sent') say(`${address} にテストメールを送信しました（編集中の内容・サンプルの値で送っています）。`, 'success');
      else say('メール送信サービスが設定されていないため、送信せずにサーバーのログに記録しました。', 'error');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_parameters' && error.details.some((p) => p.field === 'to')) {
        toError.textContent = '有効なメールアドレスを入力してください';
        toError.hidden = false;
        say('入力内容に誤りがあるため送信しませんでした。', 'error');
      } else if (error instanceof ApiError && error.code === 'invalid_template') {
        onRefused(sent);
        say('入力内容に誤りがあるため送信しませんでした。', 'error');
      } else {
        if (error instanceof ApiError && error.status === 401) return context.fail(error);
        say(errorMessage(error), 'error');
      }
    } finally {
      button.disabled = false;
      button.textContent = 'テスト送信';
    }
  }

  return h(
    'form',
    {
      class: 'panel test-send',
      'aria-labelledby': 'test-send-heading',
      noValidate: true,
      onSubmit: (event: Event) => (event.preventDefault(), void send()),
    },
    h('h2', { id: 'test-send-heading' }, 'テスト送信'),
    h(
      'p',
      { class: 'hint' },
      '編集中の件名と本文を、サンプルの値（山田 太郎 様・カタログの商品）で指定のアドレスへ送ります。保存はしません。',
    ),
    h('div', { class: 'row' }, h('label', { for: 'test-send-to' }, '送信先'), to, button),
    toError,
    result,
  );
}
