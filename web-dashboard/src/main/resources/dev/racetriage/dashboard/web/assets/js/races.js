import {api, el, fill, setText, showError, clearError, showSession, formatTime, raceHref, verdictBadge, stateBadge} from './common.js';

// The table's state lives in the URL, so a filtered view can be bookmarked and shared.
const FILTERS = ['verdict', 'state', 'scope', 'class', 'q', 'limit'];

function params() {
  return new URLSearchParams(location.search);
}

function formToUrl(form) {
  const next = params();
  for (const name of FILTERS) {
    const value = form.elements[name].value.trim();
    if (value) next.set(name, value); else next.delete(name);
  }
  next.delete('offset');
  return next;
}

function urlToForm(form, p) {
  for (const name of FILTERS) {
    if (p.has(name)) form.elements[name].value = p.get(name);
  }
}

function navigate(p) {
  history.pushState(null, '', '/races' + (p.toString() ? '?' + p : ''));
  load();
}

function exportLinks(p) {
  for (const format of ['json', 'csv', 'sarif']) {
    const q = new URLSearchParams(p);
    q.delete('offset');
    q.delete('limit');
    q.set('format', format);
    document.getElementById('export-' + format).href = '/api/export?' + q;
  }
}

function row(race) {
  return el('tr', {dataset: {id: race.id}},
    el('td', {class: 'field-key'}, el('a', {href: raceHref(race.id)}, race.id),
      race.testCode ? el('span', {class: 'badge test-code', title: 'every access is under src/test'}, 'test code') : null),
    el('td', {}, verdictBadge(race.verdict)),
    el('td', {}, stateBadge(race.state)),
    el('td', {}, race.kinds.join(', ')),
    el('td', {class: 'num'}, String(race.tests)),
    el('td', {class: 'num'}, String(race.trials)),
    el('td', {}, formatTime(race.lastSeenAt)));
}

async function load() {
  const p = params();
  const form = document.getElementById('filters');
  urlToForm(form, p);
  exportLinks(p);
  for (const button of document.querySelectorAll('button.sort')) {
    const active = (p.get('sort') || 'severity') === button.dataset.sort;
    button.classList.toggle('active', active);
    button.setAttribute('aria-sort', active ? (p.get('desc') === 'true' ? 'descending' : 'ascending') : 'none');
  }
  try {
    // by default the product's races fill the table and the test-code races get a section of their own below it
    const apart = !p.get('scope');
    const q = new URLSearchParams(p);
    if (apart) q.set('scope', 'product');
    const page = await api('/api/races?' + q);
    await loadTestCode(p, apart);
    clearError();
    fill('rows', page.items.length === 0
      ? el('tr', {}, el('td', {colspan: '7', class: 'muted'}, 'no race matches these filters'))
      : page.items.map(row));
    const first = page.total === 0 ? 0 : page.offset + 1;
    // Rows the server could not read are left out of items but still take their place in the list.
    const last = page.offset + page.items.length + page.unreadable;
    const where = apart ? " in the product's code" : p.get('scope') === 'test' ? ' in test code' : '';
    setText('summary', `${page.total} race${page.total === 1 ? '' : 's'}${where} match${page.total === 1 ? 'es' : ''}`
      + (page.note ? ` — ${page.note}` : ''));
    setText('page', `${first}–${last} of ${page.total}`);
    const prev = document.getElementById('prev');
    const next = document.getElementById('next');
    prev.disabled = page.offset === 0;
    next.disabled = last >= page.total;
    prev.onclick = () => { p.set('offset', String(Math.max(0, page.offset - page.limit))); navigate(p); };
    next.onclick = () => { p.set('offset', String(page.offset + page.limit)); navigate(p); };
  } catch (error) {
    showError(error);
  }
}

/** The test-code races under the table (the first page of them), unless a scope was chosen. */
async function loadTestCode(p, apart) {
  const section = document.getElementById('test-code-section');
  if (!apart) {
    section.hidden = true;
    return;
  }
  const q = new URLSearchParams(p);
  q.set('scope', 'test');
  q.delete('offset');
  const page = await api('/api/races?' + q);
  section.hidden = page.total === 0;
  setText('test-code-title', `Races in test code (${page.total})`);
  q.delete('limit');
  document.getElementById('test-code-all').href = '/races?' + q;
  fill('test-rows', page.items.map(row));
}

function main() {
  showSession().catch(showError);
  const form = document.getElementById('filters');
  form.addEventListener('submit', e => { e.preventDefault(); navigate(formToUrl(form)); });
  for (const select of form.querySelectorAll('select')) {
    select.addEventListener('change', () => navigate(formToUrl(form)));
  }
  for (const button of document.querySelectorAll('button.sort')) {
    button.addEventListener('click', () => {
      const p = params();
      const same = (p.get('sort') || 'severity') === button.dataset.sort;
      p.set('sort', button.dataset.sort);
      if (same && p.get('desc') !== 'true') p.set('desc', 'true'); else p.delete('desc');
      p.delete('offset');
      navigate(p);
    });
  }
  window.addEventListener('popstate', load);
  load();
}

main();
