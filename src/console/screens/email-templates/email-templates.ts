import { isTemplateKind, TEMPLATE_KINDS, type TemplateKind } from '../../../messaging/kinds.ts';
import { h, replace } from '../../ui/dom.ts';
import { TEMPLATE_KIND_LABELS } from '../../../words/email-kinds.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { TEMPLATE_DRAFT, templateEditor } from './editor.ts';
import type { Template } from './template.ts';
import { writeParams } from '../../shell/url-state.ts';

/**
 * メールテンプレート: the five customer emails, one at a time, picked by the tabs above the editor.
 * The kind shown is kept in the URL (`#/email-templates?kind=reservation-confirmed`); leaving a kind
 * with unsaved text, for another kind (asked here), another screen, the sign-out or a reload (asked
 * by the shell and the browser: the editor holds its draft in `context.unsaved`), asks first.
 */
export function openScreen(context: ScreenContext): Screen {
  let kind: TemplateKind = TEMPLATE_KINDS[0];

  return {
    show(container, params) {
      const asked = params.get('kind') ?? '';
      kind = isTemplateKind(asked) ? asked : kind;
      const templates = new Map<TemplateKind, Template>();
      const tabs = h('div', { class: 'kind-tabs', role: 'group', 'aria-label': 'メールの種類' });
      const area = h('div', {}, placeholder('読み込み中…'));
      replace(container, h('div', { class: 'view-head' }, h('h1', {}, 'メールテンプレート')), tabs, area);

      function drawTabs(): void {
        replace(
          tabs,
          ...TEMPLATE_KINDS.map((k) => {
            const t = templates.get(k);
            return h(
              'button',
              { type: 'button', 'data-kind': k, 'aria-pressed': String(k === kind), onClick: () => void pick(k) },
              TEMPLATE_KIND_LABELS[k],
              t && !t.enabled ? h('span', { class: 'tab-mark off' }, '送信しない') : null,
              t && t.enabled && !t.isDefault ? h('span', { class: 'tab-mark' }, '編集済み') : null,
            );
          }),
        );
      }

      async function pick(next: TemplateKind): Promise<void> {
        if (next === kind || !(await context.unsaved.mayDiscard({ asked: '切り替えますか？', button: '切り替える' }, [TEMPLATE_DRAFT])))
          return;
        kind = next;
        show();
      }

      function show(): void {
        writeParams({ kind: kind === TEMPLATE_KINDS[0] ? undefined : kind });
        drawTabs();
        const editor = templateEditor(context, templates.get(kind)!, (saved) => {
          templates.set(kind, saved);
          drawTabs();
        });
        replace(area, editor);
      }

      async function load(): Promise<void> {
        try {
          for (const t of (await context.api.call('/api/admin/email-templates/list', {})).templates)
            if (isTemplateKind(t.kind)) templates.set(t.kind, t);
          show();
        } catch (error) {
          context.fail(error);
          replace(
            area,
            placeholder('テンプレートを読み込めませんでした。', h('button', { type: 'button', onClick: () => void load() }, '再試行')),
          );
        }
      }
      void load();
    },
  };
}
