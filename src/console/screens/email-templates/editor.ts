import { ApiError } from '../../../client/tenpo-client.ts';
import { KIND_RULES, type TemplateKind } from '../../../messaging/kinds.ts';
import { h, replace } from '../../ui/dom.ts';
import { TEMPLATE_KIND_LABELS } from '../../../words/email-kinds.ts';
import { findTemplateProblems } from '../../../messaging/templates/placeholders.ts';
import { PLACEHOLDER_LABELS, problemWords, TEMPLATE_KIND_WHEN } from './words.ts';
import { clearedWhenTyped, joinColleagueSave } from '../../ui/colleague-save.ts';
import { formatDateTime } from '../../ui/format.ts';
import type { ScreenContext } from '../../screen.ts';
import { templatePreview } from './preview.ts';
import { testSender } from './test-send.ts';
import type { Template } from './template.ts';
import { templateVersions } from './versions.ts';

/** Where each field's problems are shown; a problem naming another field is shown with the form's. */
const PROBLEM_FIELDS = ['subject', 'body', 'enabled'] as const;

/** Where the editor's text is held while unsaved (`context.unsaved`): one kind's at a time. */
export const TEMPLATE_DRAFT = 'template';

/**
 * One kind's template: subject and body with placeholder chips, the send switch where the kind may
 * be turned off, save; beside them the live preview; below, the test send and the saved versions.
 * The text typed is a draft until saved, held in `context.unsaved` so that nothing leaves it unasked.
 */
export function templateEditor(context: ScreenContext, initial: Template, onChanged: (template: Template) => void): HTMLElement {
  let template = initial;
  const kind = template.kind as TemplateKind;
  const kindLabel = TEMPLATE_KIND_LABELS[kind];
  const subject = h('input', {
    id: 'template-subject',
    type: 'text',
    value: template.subject,
    maxlength: 400,
    'aria-describedby': 'template-subject-error',
    onInput: () => edited(),
  });
  const body = h('textarea', {
    id: 'template-body',
    rows: 18,
    value: template.body,
    'aria-describedby': 'template-body-error',
    onInput: () => edited(),
  });
  const problems = Object.fromEntries(
    PROBLEM_FIELDS.map((field) => [field, h('ul', { class: 'field-error', id: `template-${field}-error`, hidden: true })]),
  ) as Record<(typeof PROBLEM_FIELDS)[number], HTMLUListElement>;
  const versionLine = h('p', { class: 'muted version-line' });
  const save: HTMLButtonElement = h('button', { type: 'submit', class: 'primary' }, '保存');
  const discard: HTMLButtonElement = h('button', { type: 'button', onClick: () => reset() }, '編集を取り消す');
  const versionsSlot = h('div');
  const preview = templatePreview(context, showProblems);
  /** The field a chip inserts into: the last one focused, the body at first. */
  let target: HTMLInputElement | HTMLTextAreaElement = body;
  clearedWhenTyped([subject, body]);
  subject.addEventListener('focus', () => (target = subject));
  body.addEventListener('focus', () => (target = body));

  const draft = () => ({ kind, subject: subject.value, body: body.value });
  const isDirty = () => subject.value !== template.subject || body.value !== template.body;

  context.unsaved.hold(TEMPLATE_DRAFT, { what: `「${kindLabel}」のメール`, isDirty });

  function edited(): void {
    save.disabled = discard.disabled = !isDirty();
    context.unsaved.changed();
    preview.show(draft());
  }

  /**
   * Shows at each field what is wrong with `refused`, the text the service refused (nothing when
   * none was), found by the same rules the service checks it with (findTemplateProblems).
   */
  function showProblems(refused?: { subject: string; body: string; enabled?: boolean }): void {
    const list = refused ? findTemplateProblems(kind, refused) : [];
    for (const field of PROBLEM_FIELDS) {
      const words = list.filter((p) => p.field === field).map(problemWords);
      // A refusal these rules do not explain (the service updated since the page loaded) is said at the body.
      if (field === 'body' && refused && list.length === 0)
        words.push('テンプレートに誤りがあります。ページを再読み込みして、もう一度お試しください。');
      replace(problems[field], ...words.map((text) => h('li', {}, text)));
      problems[field].hidden = words.length === 0;
    }
    subject.setAttribute('aria-invalid', String(!problems.subject.hidden));
    body.setAttribute('aria-invalid', String(!problems.body.hidden));
  }

  /** Shows a template the service returned (a save, a revert, the switch) as the current one; `keepText`: the editor's text stays. */
  function adopt(saved: Template, keepText: boolean): void {
    template = saved;
    if (!keepText) {
      subject.value = saved.subject;
      body.value = saved.body;
    }
    versionLine.textContent = `第${saved.version}版・${formatDateTime(saved.updatedAt)} 保存${saved.isDefault ? '（初期設定の文面）' : ''}`;
    if (enabled) enabled.checked = saved.enabled;
    edited();
    replace(
      versionsSlot,
      templateVersions(context, saved, kindLabel, { isDirty, keepDraft, onReverted: (reverted) => adopt(reverted, false) }),
    );
    onChanged(saved);
  }

  /**
   * Saves the text in the editor as a version of its own when it is not saved: what a revert keeps
   * (its dialog promises that what is there now stays as a version). The version saved; undefined
   * when there was nothing to save; null when the service refused it (said at its fields).
   */
  async function keepDraft(): Promise<Template | undefined | null> {
    if (!isDirty()) return undefined;
    return (await update({ subject: subject.value, body: body.value }, `「${kindLabel}」の編集中の内容を保存しました`)) ? template : null;
  }

  function reset(): void {
    subject.value = template.subject;
    body.value = template.body;
    edited();
  }

  /** Saves a change; `fromVersion`, the version the text was edited from, makes a colleague's save since a 409 joined into the editor. */
  async function update(
    change: { subject?: string; body?: string; enabled?: boolean },
    done: string,
    fromVersion?: number,
  ): Promise<boolean> {
    try {
      const { template: saved } = await context.api.call('/api/admin/email-templates/update', {
        kind,
        ...change,
        ...(fromVersion === undefined ? {} : { expectedVersion: fromVersion }),
      });
      context.announce(`${done}（第${saved.version}版）`, 'success');
      adopt(saved, change.subject === undefined);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'changed_by_someone_else') await colleagueSaved();
      else if (error instanceof ApiError && error.code === 'invalid_template') {
        showProblems({ subject: change.subject ?? template.subject, body: change.body ?? template.body, enabled: change.enabled });
        context.announce('入力内容に誤りがあるため保存しませんでした。赤字の箇所を直してください。', 'error');
      } else context.fail(error);
      return false;
    }
  }

  /** A colleague saved a version first: theirs becomes the one edited from, joined with what was typed. */
  async function colleagueSaved(): Promise<void> {
    const { templates } = await context.api.call('/api/admin/email-templates/list', {});
    const theirs = templates.find((t) => t.kind === kind)!;
    const said = joinColleagueSave<'subject' | 'body'>({
      what: `「${kindLabel}」のメール`,
      labels: { subject: '件名', body: '本文' },
      controls: { subject, body },
      base: template,
      mine: { subject: subject.value, body: body.value },
      theirs,
    });
    adopt(theirs, true);
    context.announce(said, 'error');
  }

  /** The send switch, for the kinds the shop may turn off; it takes effect at once, the draft text stays. */
  const enabled = KIND_RULES[kind].mayDisable
    ? h('input', {
        type: 'checkbox',
        id: 'template-enabled',
        role: 'switch',
        checked: template.enabled,
        onChange: async () => {
          const on = enabled!.checked;
          enabled!.disabled = true;
          const ok = await update(
            { enabled: on },
            on ? `「${kindLabel}」のメールを送信するようにしました` : `「${kindLabel}」のメールを送信しないようにしました`,
          );
          if (!ok) enabled!.checked = template.enabled;
          enabled!.disabled = false;
        },
      })
    : undefined;

  const chips = h(
    'div',
    { class: 'chips', role: 'group', 'aria-label': '差し込み項目（クリックでカーソル位置に挿入）' },
    ...template.placeholders.map((p) =>
      h(
        'button',
        {
          type: 'button',
          class: p.required ? 'chip required' : 'chip',
          'data-placeholder': p.name,
          title: p.required ? '必須: 本文に必ず入れてください' : undefined,
          // Keeps the field's selection: the chip is pressed without taking the focus from it.
          onMousedown: (event: Event) => event.preventDefault(),
          onClick: () => insert(`{{${p.name}}}`),
        },
        h('span', {}, PLACEHOLDER_LABELS[p.name] ?? p.name),
        h('code', {}, `{{${p.name}}}`),
        p.required ? h('span', { class: 'badge' }, '必須') : null,
      ),
    ),
  );

  function insert(marker: string): void {
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? start;
    target.focus();
    target.setRangeText(marker, start, end, 'end');
    edited();
  }

  const field = (label: string, control: HTMLElement, error: HTMLElement, hint?: string) =>
    h(
      'div',
      { class: 'field-block' },
      h('label', { for: control.id }, label),
      hint ? h('small', { class: 'hint' }, hint) : null,
      control,
      error,
    );

  const form = h(
    'form',
    {
      class: 'panel template-form',
      'aria-labelledby': 'template-heading',
      onSubmit: async (event: Event) => {
        event.preventDefault();
        save.disabled = true;
        save.textContent = '保存中…';
        const saved = await update(
          { subject: subject.value, body: body.value },
          `「${kindLabel}」のメールを保存しました`,
          template.version,
        );
        if (!saved) save.disabled = false;
        save.textContent = '保存';
      },
    },
    h('h2', { id: 'template-heading' }, `「${kindLabel}」のメール`),
    h('p', { class: 'hint' }, TEMPLATE_KIND_WHEN[kind]),
    versionLine,
    enabled
      ? h(
          'div',
          { class: 'field-block switch-block' },
          h('label', { class: 'switch', for: 'template-enabled' }, enabled, h('span', {}, 'このメールをお客様に送信する')),
          problems.enabled,
        )
      : problems.enabled,
    field('件名', subject, problems.subject),
    h(
      'div',
      { class: 'field-block' },
      h('span', { class: 'label' }, '差し込み項目'),
      h('small', { class: 'hint' }, 'クリックするとカーソルの位置に入ります。「必須」は本文に必ず入れてください。'),
      chips,
    ),
    field('本文', body, problems.body, '空行で段落を区切ります。URL はリンクになります。'),
    h('div', { class: 'actions' }, discard, save),
  );

  adopt(template, false);
  preview.show(draft(), 'now');
  return h(
    'div',
    { class: 'template-workspace' },
    form,
    preview.element,
    h('div', { class: 'template-extras' }, testSender(context, draft, showProblems), versionsSlot),
  );
}
