import { h, type Child } from './dom.ts';

/**
 * Asks before an action that is hard to undo (a cancellation, a move of many records): a modal
 * dialog saying what will happen, resolved true only by its confirm button. With `canConfirm`, the
 * button works only while it answers true, asked again at every input in the dialog (a number that
 * must be typed, say). With `danger`, the confirm button is red: it erases, ends or takes something
 * away, as the button that opened the dialog says in red too.
 */
export function confirmDialog(options: {
  title: string;
  message: Child;
  confirm: string;
  canConfirm?: () => boolean;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    let confirmed = false;
    const button: HTMLButtonElement = h(
      'button',
      { type: 'button', class: options.danger ? 'primary danger' : 'primary', onClick: () => ((confirmed = true), dialog.close()) },
      options.confirm,
    );
    const check = () => (button.disabled = options.canConfirm?.() === false);
    const dialog = h(
      'dialog',
      {
        class: 'confirm',
        'aria-labelledby': 'confirm-title',
        onClose: () => {
          dialog.remove();
          resolve(confirmed);
        },
        onInput: check,
        onChange: check,
      },
      h('h2', { id: 'confirm-title' }, options.title),
      h('p', { class: 'confirm-message' }, options.message),
      h('div', { class: 'actions' }, h('button', { type: 'button', onClick: () => dialog.close() }, 'やめる'), button),
    );
    check();
    document.body.append(dialog);
    dialog.showModal();
  });
}
