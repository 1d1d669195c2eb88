import { ApiError } from '../../../client/tenpo-client.ts';
import { errorMessage } from '../../api/errors.ts';
import { h } from '../../ui/dom.ts';
import { templateProblemText } from './words.ts';
import type { FieldProblem } from './preview.ts';
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
  onProblems: (problems: FieldProblem[]) => void,
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
    try {
      const { status } = await context.api.call('/api/admin/email-templates/test-send', { ...draft(), to: address });
      if (status === 'sent') say(`${address} にテストメールを送信しました（編集中の内容・サンプルの値で送っています）。`, 'success');
      else say('メール送信サービスが設定されていないため、送信せずにサーバーのログに記録しました。', 'error');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const problems = error.details;
        const addressProblem = problems.find((p) => p.field === 'to');
        if (addressProblem) {
          toError.textContent = templateProblemText(addressProblem.message);
          toError.hidden = false;
        }
        onProblems(problems.filter((p) => p.field !== 'to'));
        say('入力内容に誤りがあるため送信しませんでした。', 'error');
      } else if (error instanceof ApiError && error.status === 502) {
        say(`送信できませんでした。メール送信サービスの応答: ${error.message.replace(/^Email not sent: /, '')}`, 'error');
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
