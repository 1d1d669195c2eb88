// A form's save refused because a colleague saved the same record first (409
// changed_by_someone_else): their save becomes the one the form is made from, joined field by field
// with what was typed, so the next save keeps both people's work or names what both changed.

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * Joins a colleague's save into the form. A field only they changed takes their value, one only
 * this form changed keeps the typed text, and one both changed differently keeps the typed text,
 * outlined (aria-invalid) and named with their value. `base` is what the form was made from,
 * `mine` what is typed and `theirs` what is saved now, each field as its control holds it.
 * Returns the sentence to show: what they changed, and what to do before saving again.
 */
export function joinColleagueSave<K extends string>(options: {
  /** What was saved, as the sentence names it: 店舗情報, 「予約確定」のメール. */
  what: string;
  labels: Readonly<Record<K, string>>;
  controls: Readonly<Record<K, Control>>;
  base: Readonly<Record<K, string>>;
  mine: Readonly<Record<K, string>>;
  theirs: Readonly<Record<K, string>>;
  /** A value as staff read it (a date in Japan time, say); the value itself by default. */
  shown?: (field: K, value: string) => string;
}): string {
  const { labels, controls, base, mine, theirs } = options;
  const fields = Object.keys(controls) as K[];
  const changed = fields.filter((field) => theirs[field] !== base[field]);
  const clashes = changed.filter((field) => mine[field] !== base[field] && mine[field] !== theirs[field]);
  for (const field of changed) {
    if (clashes.includes(field)) controls[field].setAttribute('aria-invalid', 'true');
    else controls[field].value = theirs[field];
  }
  const shown = (field: K) => options.shown?.(field, theirs[field]) ?? theirs[field];
  const what = changed.length > 0 ? `（${changed.map((field) => labels[field]).join('・')}を変更）` : '';
  const next =
    clashes.length > 0
      ? `${clashes.map((field) => `${labels[field]}は他の担当者が「${shown(field) || '（空欄）'}」にしていて、あなたの入力と異なります`).join('。')}。どちらにするか決めてから、もう一度保存してください。ほかの項目は、他の担当者の変更とあなたの入力を合わせてあります。`
      : '他の担当者の変更を入力欄に反映し、あなたの入力もそのまま残しています。内容を確認して、もう一度保存してください。';
  return `他の担当者が先に${options.what}を保存していました${what}。まだ保存されていません。${next}`;
}

/** Takes a field's outline (set by joinColleagueSave) off once it is typed in again. */
export function clearedWhenTyped(controls: Iterable<Control>): void {
  for (const control of controls) control.addEventListener('input', () => control.removeAttribute('aria-invalid'));
}
