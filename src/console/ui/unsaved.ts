import { confirmDialog } from './confirm-dialog.ts';

// Typed work that is not saved yet, on the screen shown. Each form that edits holds its draft
// here, and nothing held is let go without asking: the shell asks before it leaves the screen (the
// navigation, a link to another record, the browser's back) and before signing out; a screen asks
// before it closes or replaces a form; and a reload or closing the tab gets the browser's own
// question, from a beforeunload listener that is there only while something is unsaved.

/** A form's typed work. */
export interface Draft {
  /** What it is, as the question names it: 「予約確定」のメール, 店舗情報, ご予約番号 1001 のメモ. */
  what: string;
  /** Whether it holds what was typed and not saved. */
  isDirty(): boolean;
  /** Lets it go when staff chose to discard it: for a draft kept apart from its form (a memo kept while its row is drawn again). */
  discard?(): void;
}

/** What the question offers to do instead of keeping the work: 「この画面を離れますか？」 with its button 「破棄して移動する」. */
export interface Going {
  asked: string;
  button: string;
}

export const LEAVING: Going = { asked: 'この画面を離れますか？', button: '移動する' };
export const SIGNING_OUT: Going = { asked: 'ログアウトしますか？', button: 'ログアウト' };

export interface UnsavedWork {
  /** Holds a form's draft under `key`; held again under the same key (the form drawn anew), it replaces the one before. */
  hold(key: string, draft: Draft): void;
  /** Forgets the draft under `key`: it was saved, or its form is gone. */
  release(key: string): void;
  /** Whether the draft under `key` (any draft, without one) holds unsaved work. */
  isDirty(key?: string): boolean;
  /** A draft may have changed other than by typing (saved, reset, filled in): the reload guard follows. Typing is noticed by itself. */
  changed(): void;
  /**
   * Whether the drafts (those under `keys`, or all) may be let go: true when none holds unsaved
   * work, or when staff chose to discard it, after a question naming each; false keeps them.
   */
  mayDiscard(going: Going, keys?: string[]): Promise<boolean>;
}

/** The unsaved work of the screens one after another; `clear` when another screen is shown, `close` when the console is. */
export function unsavedWork(): UnsavedWork & { clear(): void; close(): void } {
  const drafts = new Map<string, Draft>();
  let guarding = false;
  const unsaved = (keys?: string[]) => [...drafts].filter(([key, draft]) => (!keys || keys.includes(key)) && draft.isDirty());
  const askBrowser = (event: BeforeUnloadEvent) => event.preventDefault();

  function changed(): void {
    const needed = unsaved().length > 0;
    if (needed === guarding) return;
    guarding = needed;
    if (needed) window.addEventListener('beforeunload', askBrowser);
    else window.removeEventListener('beforeunload', askBrowser);
  }
  document.addEventListener('input', changed);

  return {
    hold(key, draft) {
      drafts.set(key, draft);
      changed();
    },
    release(key) {
      drafts.delete(key);
      changed();
    },
    isDirty: (key) => unsaved(key === undefined ? undefined : [key]).length > 0,
    changed,
    async mayDiscard(going, keys) {
      const dirty = unsaved(keys);
      if (dirty.length === 0) return true;
      const discard = await confirmDialog({
        title: '保存していない変更があります',
        message: `${dirty.map(([, draft]) => draft.what).join('、')}の編集中の内容は保存されていません。破棄して${going.asked}`,
        confirm: `破棄して${going.button}`,
        danger: true,
      });
      if (discard) {
        for (const [key, draft] of dirty) {
          draft.discard?.();
          drafts.delete(key);
        }
      }
      changed();
      return discard;
    },
    clear() {
      drafts.clear();
      changed();
    },
    close() {
      drafts.clear();
      changed();
      document.removeEventListener('input', changed);
    },
  };
}

/** Whether any of these fields holds other than what it held when this was called: for a form that starts from given values. */
export function editedSince(fields: (HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement)[]): () => boolean {
  const initial = fields.map((field) => field.value);
  return () => fields.some((field, index) => field.value !== initial[index]);
}
