import { ApiError, createTenpoClient, type Output } from '../client/tenpo-client.ts';
import { loadSiteSearch, type SiteSearch } from '../search/site-search.ts';

// The storefront developer's working example (docs/storefront-package.md: "The demo storefront"): the catalog through
// tenpo/client, site search in the page through tenpo/search-browser (no request per keystroke but
// the suggestions), the two public forms with their per-field errors, and preorder state where a
// campaign exists. Served at /dev/storefront in development only.

const shop = createTenpoClient();

type Product = Output<'/api/products'>['products'][number];
const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

/** An element with attributes and children; text is always text (never parsed as HTML). */
function h(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const yen = (price: number | null) => (price === null ? '価格未定' : `¥${price.toLocaleString('ja-JP')}`);

// ---- catalog: keyword and tag filters over GET /api/products ----

const selectedTags = new Set<string>();
let preorders = new Map<string, Preorder>();

async function showCatalog(): Promise<void> {
  const q = $<HTMLInputElement>('#catalog-q').value;
  const reply = await shop.send('/api/products', { q, tag: [...selectedTags], per_page: '200' });
  if (!reply.ok) {
    $('#catalog').replaceChildren(h('p', { class: 'error' }, reply.body.error));
    return;
  }
  $('#tags').replaceChildren(
    ...reply.body.availableTags.map((tag) => {
      const button = h('button', { type: 'button', 'aria-pressed': String(selectedTags.has(tag)) }, tag);
      button.addEventListener('click', () => {
        if (!selectedTags.delete(tag)) selectedTags.add(tag);
        void showCatalog();
      });
      return button;
    }),
  );
  $('#catalog-count').textContent = `${reply.body.total} 件`;
  $('#catalog').replaceChildren(...reply.body.products.map(productCard));
}

function productCard(product: Product): HTMLElement {
  const preorder = preorders.get(product.slug);
  const choose = (form: 'reserve' | 'notify') => {
    const button = h('button', { type: 'button' }, form === 'reserve' ? '予約する' : '再入荷を知らせる');
    button.addEventListener('click', () => openForm(form, product));
    return button;
  };
  return h(
    'article',
    { class: 'product', 'data-slug': product.slug },
    h('p', { class: 'brand' }, product.brand),
    h('h3', {}, product.name),
    h('p', { class: 'price' }, yen(product.price), product.spec.width ? ` · ${product.spec.width}` : ''),
    ...(preorder ? [preorderLine(preorder)] : []),
    h('p', { class: 'tags' }, product.tags.join(' · ')),
    h('div', { class: 'actions' }, choose('reserve'), choose('notify')),
  );
}

// ---- preorder state: GET /api/preorders ----

type Preorder = Output<'/api/preorders'>['preorders'][number];

const STATES: Record<Preorder['state'], string> = {
  upcoming: '予約受付前',
  open: '予約受付中',
  soldOut: '予約数上限',
  closed: '予約受付終了',
};

function preorderLine(preorder: Preorder): HTMLElement {
  const details = [
    STATES[preorder.state],
    preorder.remaining === null ? '' : `残り ${preorder.remaining}`,
    preorder.shipsIn ? `${preorder.shipsIn} 発送予定` : '',
  ];
  return h('p', { class: `preorder ${preorder.state}` }, details.filter(Boolean).join(' · '));
}

/** Campaigns by product; none when the service does not answer with them. */
async function loadPreorders(): Promise<Map<string, Preorder>> {
  const reply = await shop.send('/api/preorders').catch(() => undefined);
  return new Map(reply?.ok ? reply.body.preorders.map((preorder) => [preorder.productSlug, preorder]) : []);
}

// ---- site search in the page, with suggestions from the service ----

let site: SiteSearch | undefined;

function showResults(): void {
  const q = $<HTMLInputElement>('#search-q').value;
  if (!site) return;
  const { results, totalResults } = site.search(q, { excerptLength: 120 });
  $('#search-count').textContent = q.trim() === '' ? '' : `${totalResults} 件`;
  $('#results').replaceChildren(
    ...results.map((result) => {
      // highlighted_* are HTML the search escaped itself, with matches in <mark>: made to be inserted.
      const title = h('a', { href: result.slug });
      title.innerHTML = result.highlighted_title;
      const excerpt = h('p');
      excerpt.innerHTML = result.highlighted_excerpt;
      return h('li', {}, title, excerpt);
    }),
  );
}

async function showSuggestions(): Promise<void> {
  const input = $<HTMLInputElement>('#search-q');
  const typed = input.value;
  const reply = await shop.send('/api/search/suggest', { q: typed });
  if (input.value !== typed) return;
  const suggestions = reply.ok ? reply.body.suggestions : [];
  $('#suggestions').replaceChildren(
    ...suggestions.map(({ text, kind }) => {
      const button = h('button', { type: 'button', 'data-kind': kind }, text);
      button.addEventListener('click', () => {
        // A suggestion completes the last word.
        input.value = typed.replace(/\S*$/, text);
        $('#suggestions').replaceChildren();
        showResults();
        input.focus();
      });
      return h('li', {}, button);
    }),
  );
}

// ---- the reservation and restock forms ----

let chosen: { form: 'reserve' | 'notify'; product: Product } | undefined;

function openForm(form: 'reserve' | 'notify', product: Product): void {
  chosen = { form, product };
  const dialog = $<HTMLFormElement>('#order');
  dialog.hidden = false;
  $('#order-title').textContent = `${product.name}: ${form === 'reserve' ? '予約' : '再入荷のお知らせ'}`;
  $('#name-field').hidden = form === 'notify';
  $('#order-result').textContent = '';
  for (const message of document.querySelectorAll('#order .field-error')) message.textContent = '';
  dialog.scrollIntoView({ block: 'nearest' });
}

async function submitForm(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (!chosen) return;
  const email = $<HTMLInputElement>('#email').value;
  const productSlug = chosen.product.slug;
  for (const message of document.querySelectorAll('#order .field-error')) message.textContent = '';
  try {
    const text =
      chosen.form === 'reserve'
        ? `予約を受け付けました（ご予約番号 ${(await shop.call('/api/reservation', { name: $<HTMLInputElement>('#name').value, email, productSlug })).reservationNumber}）`
        : `再入荷をお知らせします（${(await shop.call('/api/notify', { email, productSlug })).subscriptionId}）`;
    $('#order-result').textContent = text;
    $('#order-result').className = 'ok';
  } catch (error) {
    const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
    $('#order-result').textContent = failure.message;
    $('#order-result').className = 'error';
    for (const { field, message } of failure.details) {
      const slot = document.querySelector(`#order [data-error-for="${CSS.escape(field)}"]`);
      if (slot) slot.textContent = message;
    }
  }
}

// ---- start ----

$<HTMLInputElement>('#catalog-q').addEventListener('input', () => void showCatalog());
$<HTMLInputElement>('#search-q').addEventListener('input', () => {
  showResults();
  void showSuggestions();
});
$<HTMLFormElement>('#order').addEventListener('submit', (event) => void submitForm(event));
$('#order-close').addEventListener('click', () => {
  $<HTMLFormElement>('#order').hidden = true;
});

preorders = await loadPreorders();
await showCatalog();
site = await loadSiteSearch('/api/search-index');
$<HTMLInputElement>('#search-q').disabled = false;
$<HTMLInputElement>('#search-q').placeholder = 'サイト内を検索（例：ふぃるたー）';
document.body.dataset.ready = 'yes';
