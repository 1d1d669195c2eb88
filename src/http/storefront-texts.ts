/** The customer-facing Japanese texts of the public storefront endpoints. */
export const JA = {
  invalidInput: '入力内容に誤りがあります',
  nameRequired: 'お名前を入力してください',
  emailInvalid: '有効なメールアドレスを入力してください',
  productSlugInvalid: '商品の指定が正しくありません',
  productNotFound: '指定された商品が見つかりません',
  serverError: 'サーバーエラーが発生しました。しばらくしてから再度お試しください',
  tooManyRequests: 'リクエストが多すぎます。しばらくしてから再度お試しください',
  /** A reservation refused by its product's preorder campaign, 409. */
  preorder: {
    upcoming: '予約受付開始前です',
    closed: '予約受付は終了しました',
    soldOut: '予約数が上限に達しました',
    customerLimit: 'お一人様あたりの予約数の上限に達しています',
  },
} as const;
