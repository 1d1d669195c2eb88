import type { Output } from '../../../client/tenpo-client.ts';
import { findTemplateProblems } from '../../../messaging/templates/placeholders.ts';
import type { TemplateKind } from '../../../messaging/kinds.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatDateTime } from '../../ui/format.ts';
import type { ScreenContext } from '../../screen.ts';
import type { Template } from './template.ts';
import { PLACEHOLDER_LABELS } from './words.ts';

type Version = Output<'/api/admin/email-templates/versions'>['versions'][number];

/**
 * A template's saved versions, newest first, each with its text on demand and 「この版に戻す」: a
 * revert saves the old text as a new version, after a confirmation. Nothing is lost, as the dialog
 * says: what the editor holds unsaved is first saved as a version of its own (`keepDraft`), and
 * when that is refused nothing is reverted.
 */
export function templateVersions(
  context: ScreenContext,
  template: Template,
  kindLabel: string,
  editor: {
    /** Whether the editor holds text that is not saved. */
    isDirty(): boolean;
    /** Saves the editor's unsaved text as a version: the one saved, undefined when there was none, null when refused. */
    keepDraft(): Promise<Template | undefined | null>;
    onReverted(template: Template): void;
  },
): HTMLElement {
  const list = h('div', { class: 'version-list' }, h('p', { class: 'muted' }, '読み込み中…'));
  const element = h(
    'section',
    { class: 'panel template-versions', 'aria-labelledby': 'versions-heading' },
    h('h2', { id: 'versions-heading' }, '保存した版'),
    list,
  );

  async function revert(version: Version): Promise<void> {
    // A version from before a placeholder became required gets it at the end of its body (the service adds it).
    const missing = findTemplateProblems(template.kind as TemplateKind, { subject: version.subject, body: version.body }).flatMap(
      (problem) =>
        problem.type === 'missingPlaceholder' ? [`{{${problem.name}}}（${PLACEHOLDER_LABELS[problem.name] ?? problem.name}）`] : [],
    );
    const added =
      missing.length > 0 ? `第${version.version}版になかった必須の差し込み項目 ${missing.join('・')} を本文の最後に加えています。` : '';
    const asked = {
      title: `第${version.version}版に戻します`,
      message: `「${kindLabel}」のメールを第${version.version}版（${formatDateTime(version.createdAt)} 保存）の件名・本文・送信設定に戻します。${added ? added.replace('加えています', '加えます') : ''}いまの内容も版として残ります。${editor.isDirty() ? '編集中の保存していない内容は、先に新しい版として保存します。' : ''}`,
      confirm: `第${version.version}版に戻す`,
    };
    if (!(await confirmDialog(asked))) return;
    const kept = await editor.keepDraft();
    if (kept === null)
      return context.announce(
        `編集中の内容に誤りがあり版として保存できないため、第${version.version}版には戻していません。赤字の箇所を直すか「編集を取り消す」を押してから、もう一度お試しください。`,
        'error',
      );
    try {
      const { template: reverted } = await context.api.call('/api/admin/email-templates/revert', {
        kind: template.kind,
        version: version.version,
      });
      const before = kept ? `編集中の内容を第${kept.version}版として保存し、` : '';
      context.announce(`${before}第${version.version}版の内容を第${reverted.version}版として保存しました。${added}`, 'success');
      editor.onReverted(reverted);
    } catch (error) {
      context.fail(error);
    }
  }

  const row = (version: Version) =>
    h(
      'li',
      { 'data-version': version.version },
      h(
        'div',
        { class: 'version-head' },
        h('strong', {}, `第${version.version}版`),
        version.version === template.version ? h('span', { class: 'state open' }, '現在') : null,
        version.enabled ? null : h('span', { class: 'state closed' }, '送信しない'),
        h('span', { class: 'muted' }, formatDateTime(version.createdAt)),
        version.version === template.version
          ? null
          : h('button', { type: 'button', class: 'revert', onClick: () => void revert(version) }, 'この版に戻す…'),
      ),
      h('details', {}, h('summary', {}, version.subject), h('pre', { class: 'version-body' }, version.body)),
    );

  void context.api
    .call('/api/admin/email-templates/versions', { kind: template.kind })
    .then(({ versions }) => replace(list, h('ol', { reversed: true }, ...versions.map(row))))
    .catch((error: unknown) => {
      context.fail(error);
      replace(list, h('p', { class: 'muted' }, '版の一覧を読み込めませんでした。'));
    });
  return element;
}
