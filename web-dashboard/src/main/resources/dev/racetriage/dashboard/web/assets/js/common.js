// Shared by every page. Rule: text from the API (field keys, test output, source lines, notes) is only ever put in
// the page with textContent or as an attribute value via the DOM — never through innerHTML — so it renders as text.

/** Creates an element: el('a', {href: url, class: 'x'}, 'text', childNode, ...). Strings become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of the element with id {@code id}. */
export function fill(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren();
  append(node, children);
  return node;
}

export function setText(id, text) {
  document.getElementById(id).textContent = text ?? '';
}

let sessionPromise = null;

/** The session (cookie + CSRF token), created on first use. */
export function session() {
  if (!sessionPromise) {
    sessionPromise = fetch('/api/session', {credentials: 'same-origin'}).then(r => r.json());
  }
  return sessionPromise;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the JSON API. Mutations carry the session's CSRF token; JSON bodies are sent as application/json. */
export async function api(path, {method = 'GET', body} = {}) {
  const headers = {'Accept': 'application/json'};
  if (method !== 'GET') {
    headers['X-CSRF-Token'] = (await session()).csrfToken;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body)
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(response.status, data.error || `${response.status} ${response.statusText}`);
  }
  return data;
}

export function showError(error) {
  const box = document.getElementById('error');
  box.replaceChildren();
  box.append(document.createTextNode(error.message || String(error)));
  if (error.status === 401) {
    box.append(' ', el('a', {href: '/login'}, 'Log in'));
  }
  box.hidden = false;
}

export function clearError() {
  const box = document.getElementById('error');
  box.hidden = true;
  box.replaceChildren();
}

/** Shows whether changes are allowed in this session, with a login link when a token is needed. */
export async function showSession() {
  const s = await session();
  const target = document.getElementById('session');
  if (!target) return s;
  if (s.mutationsNeedToken && !s.authenticated) {
    target.replaceChildren('read-only · ', el('a', {href: '/login'}, 'log in to triage'));
  } else {
    target.replaceChildren(s.mutationsNeedToken ? 'logged in' : 'local session');
  }
  return s;
}

export function formatTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function verdictBadge(verdict) {
  return el('span', {class: `badge verdict-${verdict}`}, verdict);
}

export function stateBadge(state) {
  return el('span', {class: `badge state-${state}`}, state);
}

export function raceHref(id) {
  return '/races/' + encodeURIComponent(id);
}

/** Verdict colours shared by the badges (CSS) and the charts. */
export const VERDICT_COLORS = {
  destructive: '#c62828', qos: '#ef6c00', flaky: '#8e24aa', unexercised: '#607d8b', benign: '#2e7d32',
  pending: '#9e9e9e'
};
