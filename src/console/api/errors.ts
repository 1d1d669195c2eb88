import { ApiError, type ErrorCode } from '../../client/tenpo-client.ts';
import { PREORDER_FIELD_LABELS, SHOP_FIELD_LABELS } from '../../words/labels.ts';

// What staff read when a call fails: from the error's code, a sentence in Japanese saying what
// happened and what to do. The service's text (English, for the admin API) is neither shown nor
// read, so rewording it changes nothing here; a code the console does not know yet gets a sentence
// from its HTTP status.

/** What happened, and what to do about it. */
interface Words {
  what: string;
  next?: string;
}

const RELOAD_PAGE = 'ページを再読み込みして、もう一度お試しください。';
const RELOAD_LIST = '一覧を再読み込みして、現在の状態を確認してください。';
const LATER = 'しばらくしてから再度お試しください。';

/** Every code the service answers, in staff's words (`src/http/error-codes.ts` says what each means). */
export const ERROR_WORDS: Record<ErrorCode, Words> = {
  bad_request: { what: 'リクエストの形式が正しくありません', next: RELOAD_PAGE },
  request_timeout: { what: 'サーバーへの送信が時間内に終わりませんでした', next: '通信環境を確認して、もう一度お試しください。' },
  headers_too_large: { what: 'リクエストが大きすぎます', next: RELOAD_PAGE },
  not_found: { what: '対象が見つかりません', next: RELOAD_PAGE },
  method_not_allowed: { what: 'この操作は受け付けられませんでした', next: RELOAD_PAGE },
  invalid_json_body: { what: '送信した内容を読み取れませんでした', next: RELOAD_PAGE },
  payload_too_large: { what: '送信する内容が大きすぎます', next: '選択する件数を減らしてください。' },
  request_body_incomplete: { what: '送信が途中で途切れました', next: '通信環境を確認して、もう一度お試しください。' },
  internal_error: { what: 'サーバーエラーが発生しました', next: LATER },

  unauthorized: { what: 'ログインが切れたか、管理トークンが正しくありません', next: 'もう一度ログインしてください。' },
  too_many_failed_authentications: {
    what: 'ログインやトークンの誤りが続いたため、しばらく操作できません',
    next: '1分ほど待ってから、もう一度お試しください。',
  },
  origin_not_allowed: { what: 'このページからの送信は受け付けられませんでした', next: '管理画面を開き直してください。' },
  forbidden: { what: 'この操作はオーナーの担当者だけが行えます', next: 'オーナーに依頼してください。' },
  invalid_email_or_password: {
    what: 'メールアドレスまたはパスワードが正しくありません',
    next: '入力を確認してください。アカウントが無効にされている場合は、オーナーに確認してください。',
  },
  too_many_failed_sign_ins: {
    what: 'このメールアドレスでのログインの失敗が続いたため、しばらくログインできません',
    next: '15分ほど待ってから、もう一度お試しください。',
  },
  too_many_requests: { what: 'リクエストが多すぎます', next: LATER },
  invalid_idempotency_key: { what: '再送信の指定が正しくありません', next: RELOAD_PAGE },
  idempotency_key_reused: { what: '同じ再送信の指定で、別の内容が送られました', next: RELOAD_PAGE },

  invalid_parameters: { what: '入力内容に誤りがあります', next: '入力を確認してください。' },
  missing_required_fields: { what: '必要な項目が送信されませんでした', next: RELOAD_PAGE },
  invalid_status: { what: 'ステータスの指定が正しくありません', next: RELOAD_LIST },
  invalid_channel: { what: 'チャネルの指定が正しくありません', next: RELOAD_PAGE },
  invalid_input: { what: '入力内容に誤りがあります', next: '入力を確認してください。' },

  product_not_found: { what: '商品が見つかりません', next: 'カタログから外された可能性があります。' },
  preorder_upcoming: { what: '予約受付の開始前です' },
  preorder_closed: { what: '予約受付は終了しました' },
  preorder_sold_out: { what: '予約数が上限に達しました' },
  customer_limit_reached: { what: 'お一人様あたりの予約数の上限に達しています' },

  reservation_not_found: { what: '予約が見つかりません', next: `他の担当者が削除した可能性があります。${RELOAD_LIST}` },
  subscription_not_found: { what: '再入荷通知の登録が見つかりません', next: `他の担当者が削除した可能性があります。${RELOAD_LIST}` },
  reservation_archived: { what: 'この予約はアーカイブ済みのため変更できません', next: '変更するには、アーカイブから元に戻してください。' },
  subscription_archived: { what: 'この登録はアーカイブ済みのため変更できません', next: '変更するには、アーカイブから元に戻してください。' },
  changed_by_someone_else: { what: '他の担当者が先に変更していました', next: '最新の内容を確認してから、もう一度操作してください。' },
  invalid_status_transition: { what: 'このステータスには変更できません', next: RELOAD_LIST },
  preorder_full: {
    what: '予約受付の台数に空きがないため、キャンセルから戻せません',
    next: '予約受付の画面で台数を増やしてから、もう一度お試しください。',
  },
  unsubscribed_by_customer: {
    what: 'お客様ご自身が配信停止した登録のため、通知待ちに戻せません',
    next: '配信停止を取り消せるのはお客様だけです。もう一度通知を希望される場合は、お客様ご自身で再登録していただいてください。',
  },
  another_pending_subscription: {
    what: '同じメールアドレスと商品の通知待ちの登録がほかにあるため、戻せません',
    next: 'そちらの登録を確認してください。',
  },
  reservation_not_pending: { what: 'この予約は未対応ではないため、キャンセルできません', next: RELOAD_LIST },
  unknown_product: { what: 'カタログにない商品です', next: '商品を選び直してください。' },
  already_archived: { what: 'すでにアーカイブ済みです' },
  not_archived: { what: 'アーカイブされていません' },
  invalid_item: { what: '指定が正しくありません' },

  preorder_has_reservations: {
    what: 'この予約受付にはキャンセルされていない予約があるため、削除していません（削除すると台数や期間の制限がなくなります）',
    next: '受付をやめるには「受付を終了」で終了日時を今にしてください。',
  },
  preorder_not_found: {
    what: 'この商品の予約受付は見つかりません',
    next: '他の担当者が削除した可能性があります。画面を更新してください。',
  },
  template_not_found: { what: 'このメールの種類は見つかりません', next: RELOAD_PAGE },
  version_not_found: { what: 'この版は見つかりません', next: '版の一覧を確認してください。' },
  invalid_template: { what: 'テンプレートに誤りがあります', next: '赤字の箇所を直してください。' },
  email_not_sent: {
    what: 'メール送信サービスがテストメールを受け付けませんでした',
    next: '送信先のアドレスと、メール送信サービスの設定を確認してください。',
  },
  message_not_found: { what: 'メッセージが見つかりません（保存期間を過ぎて削除された可能性があります）' },
  message_not_dead: { what: '送信失敗ではないため、再送できません' },
  message_superseded: { what: 'その後ご予約や登録の状況が変わり、内容が事実と合わなくなったため、送信を取りやめました' },

  webhook_not_configured: {
    what: '配信結果の受け取りが設定されていません',
    next: '配信結果の署名の秘密鍵をサーバーに設定してください（運用ガイドを参照）。',
  },
  invalid_webhook_signature: { what: '配信結果の署名を確かめられませんでした' },
  suppression_not_found: { what: 'このアドレスの配信停止はもうありません', next: '一覧を再読み込みしてください。' },
  complaint_not_liftable: { what: '迷惑メールの報告による配信停止は解除できません' },

  staff_not_found: { what: '担当者のアカウントが見つかりません', next: '一覧を再読み込みしてください。' },
  staff_email_exists: { what: 'このメールアドレスの担当者はすでに登録されています', next: '別のメールアドレスを入力してください。' },
  owner_required: {
    what: '有効なオーナーが一人もいなくなるため、変更できません',
    next: '先に別の担当者をオーナーにしてください。',
  },
  current_password_wrong: { what: '現在のパスワードが正しくありません', next: '入力を確認してください。' },
};

/** The fields of the admin API's requests, as the screens call them, for saying which one is wrong. */
const FIELD_WORDS: Record<string, string> = {
  productSlug: '商品',
  ...PREORDER_FIELD_LABELS,
  notes: 'メモ',
  q: '検索語',
  email: 'メールアドレス',
  to: '送信先',
  subject: '件名',
  body: '本文',
  status: 'ステータス',
  ids: '選択した件',
  ...SHOP_FIELD_LABELS,
  limit: '送信する件数',
  role: '役割',
  password: 'パスワード',
  current: '現在のパスワード',
  next: '新しいパスワード',
};

export const WRONG_TOKEN = '管理トークンが正しくありません。入力したトークンを確認してください。';
export const TOKEN_REJECTED = '管理トークンが無効になりました（変更された可能性があります）。もう一度ログインしてください。';
export const SESSION_ENDED =
  'ログインが終了しました（有効期限が切れたか、別の場所でログアウトしたか、アカウントが無効にされたか、パスワードが再設定されました）。もう一度ログインしてください。';
export const SIGNED_OUT_ELSEWHERE = '別のタブでログアウトしました。';
const UNEXPECTED = '予期しないエラーが発生しました。ページを再読み込みしてください。';
const OFFLINE: Words = {
  what: 'この端末がインターネットに接続されていません（オフライン）',
  next: '接続を確認してから、もう一度お試しください。',
};
const UNREACHABLE: Words = { what: 'サーバーに接続できませんでした（サーバーが停止しているか、途中の回線に問題があります）', next: LATER };
/** A proxy's answer for a service it could not reach (502, 503, 504 with no envelope of the service's). */
const NOT_ANSWERING = (status: number) => `サーバーが応答していません（HTTP ${status}）。しばらくしてから再度お試しください。`;

/** No answer came: the device is offline, or the service (or the way to it) is down. */
function noAnswer(): Words {
  return globalThis.navigator?.onLine === false ? OFFLINE : UNREACHABLE;
}

/** Why nothing answered, in a sentence: the device offline, or the service out of reach. */
export function noAnswerMessage(): string {
  return sentence(noAnswer());
}

function sentence({ what, next }: Words): string {
  return `${what}。${next ?? ''}`;
}

/** The words for an error's code, if the console knows the code. */
function wordsOf(code: string | undefined): Words | undefined {
  return code !== undefined && Object.hasOwn(ERROR_WORDS, code) ? ERROR_WORDS[code as ErrorCode] : undefined;
}

/**
 * What to tell staff about a failed call: what happened and what to do. `fields` names a screen's
 * own fields where the shared words would not (a person's `name` is not the shop's).
 */
export function errorMessage(error: unknown, fields: Readonly<Record<string, string>> = {}): string {
  if (!(error instanceof ApiError)) return UNEXPECTED;
  if (error.status === 0) return noAnswerMessage();
  const words = wordsOf(error.code);
  const inquiry = error.requestId ? `（問い合わせ番号: ${error.requestId}）` : '';
  if (!words) {
    // A proxy's page for a service it could not reach, or a code this console does not know yet:
    // a refusal is said with the service's own text, the one thing that says why.
    if (error.code === undefined && [502, 503, 504].includes(error.status)) return `${NOT_ANSWERING(error.status)}${inquiry}`;
    if (error.status >= 500) return `${sentence(ERROR_WORDS.internal_error)}${inquiry}`;
    return `サーバーがこの操作を受け付けませんでした（HTTP ${error.status}、サーバーの応答: ${error.message}）。${RELOAD_PAGE}`;
  }
  switch (error.code) {
    case 'invalid_parameters': {
      const named = { ...FIELD_WORDS, ...fields };
      const wrong = [...new Set(error.details.flatMap((d) => (Object.hasOwn(named, d.field) ? [named[d.field]!] : [])))];
      return sentence({ ...words, what: wrong.length > 0 ? `${words.what}（${wrong.join('、')}）` : words.what });
    }
    case 'internal_error':
      return `${sentence(words)}${inquiry}`;
    case 'email_not_sent':
      // The provider's own answer (a refused address, say) is what staff need to fix it: kept, as the detail.
      return `${sentence(words)}（メール送信サービスの応答: ${error.message}）`;
    default:
      return sentence(words);
  }
}

/** What happened, in a few words, for a list of reasons (the items of a bulk answer, the failures of a bulk move). */
export function errorReason(error: unknown): string {
  if (error instanceof ApiError) return error.status === 0 ? noAnswer().what : reasonOf(error.code);
  return '予期しないエラーが発生しました';
}

/** What a code means and what to do, in a sentence: said before the service is asked (a move not offered, and why). */
export function codeMessage(code: ErrorCode): string {
  return sentence(ERROR_WORDS[code]);
}

/** An item's reason in a bulk answer, from its code. */
export function reasonOf(code: string | undefined): string {
  return wordsOf(code)?.what ?? '処理できませんでした';
}
