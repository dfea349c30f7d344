import {api, el, fill, setText, showError, clearError, showSession, formatTime, raceHref} from './common.js';

// The workers and the trial queue, read again every few seconds (the page is a status board: no SSE needed).
const REFRESH_MS = 5000;

function ago(seconds) {
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

function workerRow(w) {
  return el('tr', {dataset: {id: w.id}, class: `worker-${w.status}`},
    el('td', {}, w.host), el('td', {class: 'num'}, String(w.pid)),
    el('td', {}, el('code', {title: w.commit ?? ''}, w.commit ? w.commit.substring(0, 10) : '—')),
    el('td', {title: w.message ?? ''}, w.state.toLowerCase()),
    el('td', {class: 'num'}, String(w.itemsDone)), el('td', {class: 'num'}, String(w.trialsDone)),
    el('td', {title: w.heartbeatAt}, `${formatTime(w.heartbeatAt)} (${ago(w.secondsSinceHeartbeat)})`),
    el('td', {}, el('span', {class: `badge worker-${w.status}`}, w.status)));
}

function claimedRow(unit, hosts) {
  return el('tr', {},
    el('td', {class: 'num'}, String(unit.id)), el('td', {class: 'num'}, String(unit.runId)),
    el('td', {class: 'field-key'}, el('a', {href: raceHref(unit.field)}, unit.field)),
    el('td', {}, unit.test), el('td', {title: unit.claimedBy}, hosts[unit.claimedBy] ?? unit.claimedBy),
    el('td', {}, formatTime(unit.leaseUntil)), el('td', {class: 'num'}, String(unit.attempts)));
}

async function load() {
  const run = new URLSearchParams(location.search).get('run');
  try {
    const data = await api('/api/workers' + (run ? '?run=' + encodeURIComponent(run) : ''));
    clearError();
    fill('workers', data.workers.length === 0
      ? el('tr', {}, el('td', {colspan: '8', class: 'muted'},
          'no worker has registered (start one with “racetriage worker”)'))
      : data.workers.map(workerRow));
    setText('workers-summary', `${data.alive} of ${data.workers.length} alive; a worker silent for more than `
      + `${data.presumedDeadAfterSeconds} s is stale (its claimed units go back to the queue when their leases end).`);
    const counts = data.queue.counts;
    fill('queue-counts', (run ? `Run #${run}: ` : 'Every run: '),
      ...Object.entries(counts).flatMap(([state, n], i) =>
        [i === 0 ? '' : ' · ', el('strong', {}, String(n)), ` ${state}`]));
    const hosts = Object.fromEntries(data.workers.map(w => [w.id, `${w.host} (PID ${w.pid})`]));
    fill('claimed', data.queue.claimed.length === 0
      ? el('tr', {}, el('td', {colspan: '7', class: 'muted'}, 'no unit is claimed now'))
      : data.queue.claimed.map(unit => claimedRow(unit, hosts)));
    setText('refreshed', `updated ${new Date().toLocaleTimeString()}`);
  } catch (error) {
    showError(error);
  }
}

showSession().catch(showError);
load();
setInterval(load, REFRESH_MS);
