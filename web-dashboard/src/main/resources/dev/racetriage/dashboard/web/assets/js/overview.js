import {api, el, fill, setText, showError, showSession, formatTime, raceHref, VERDICT_COLORS} from './common.js';

let countsChart = null;

function renderCounts(counts) {
  const cards = Object.entries(counts.byVerdict).map(([verdict, n]) =>
    el('a', {class: `card verdict-${verdict}`, href: '/races?verdict=' + encodeURIComponent(verdict)},
      el('span', {class: 'count'}, String(n)), el('span', {class: 'label'}, verdict)));
  cards.push(el('a', {class: 'card state-trusted-benign', href: '/races?state=trusted-benign'},
    el('span', {class: 'count'}, String(counts.trustedBenign)), el('span', {class: 'label'}, 'trusted-benign')));
  cards.push(el('a', {class: 'card state-regressed', href: '/races?state=regressed'},
    el('span', {class: 'count'}, String(counts.regressed)), el('span', {class: 'label'}, 'regressed (open again)')));
  cards.push(el('a', {class: 'card state-fixed', href: '/races?state=fixed'},
    el('span', {class: 'count'}, String(counts.fixed)), el('span', {class: 'label'}, 'fixed (not counted above)')));
  cards.push(el('a', {class: 'card total', href: '/races'},
    el('span', {class: 'count'}, String(counts.total)), el('span', {class: 'label'}, 'total')));
  const inTests = counts.testCode;
  const destructiveInTests = inTests.byVerdict.destructive || 0;
  cards.push(el('a', {class: 'card test-code', href: '/races?scope=test',
      title: 'races whose every access is under src/test, counted above too'},
    el('span', {class: 'count'}, String(inTests.total)),
    el('span', {class: 'label'}, 'of them in test code' + (destructiveInTests ? ` (${destructiveInTests} destructive)` : ''))));
  fill('counts', cards);
  renderCountsChart(counts);
}

function renderCountsChart(counts) {
  if (!window.Chart) return;
  const labels = Object.keys(counts.byVerdict);
  const data = labels.map(l => counts.byVerdict[l]);
  if (countsChart) {
    countsChart.data.datasets[0].data = data;
    countsChart.update();
    return;
  }
  countsChart = new window.Chart(document.getElementById('counts-chart'), {
    type: 'doughnut',
    data: {labels, datasets: [{data, backgroundColor: labels.map(l => VERDICT_COLORS[l])}]},
    options: {animation: false, plugins: {legend: {position: 'right'}}}
  });
}

function renderProgress(progress) {
  const q = progress.queue;
  const parts = [
    el('p', {class: 'queue'},
      el('strong', {}, String(q.pending)), ' queued · ',
      el('strong', {}, String(q.claimed)), ' in progress · ',
      el('strong', {}, String(q.done)), ' done · ',
      el('strong', {}, String(q.failed)), ' failed')
  ];
  const total = q.pending + q.claimed + q.done + q.failed;
  if (total > 0) {
    parts.push(el('progress', {max: String(total), value: String(q.done + q.failed), class: 'bar'}));
  }
  if (progress.working.length > 0) {
    parts.push(el('ul', {class: 'plain working'}, progress.working.map(w =>
      el('li', {}, el('a', {href: raceHref(w.field)}, w.field), ' — ', w.reason,
        el('span', {class: 'muted'}, ` (${w.claimedBy ?? '?'}, attempt ${w.attempts})`)))));
  }
  if (progress.runningRuns.length > 0) {
    parts.push(el('p', {}, progress.runningRuns.map(r => `${r.kind} run #${r.id} running since ${formatTime(r.startedAt)}`).join('; ')));
  } else if (progress.latestRun) {
    const r = progress.latestRun;
    parts.push(el('p', {class: 'muted'}, `Last run: ${r.kind} #${r.id} ${r.status}, ${formatTime(r.finishedAt ?? r.startedAt)}`));
  } else {
    parts.push(el('p', {class: 'muted'}, 'No run yet. Start one with “racetriage triage” or “racetriage daemon”.'));
  }
  fill('progress', parts);
}

function renderRuns(runs) {
  fill('runs', runs.length === 0
    ? el('tr', {}, el('td', {colspan: '6', class: 'muted'}, 'no runs recorded'))
    : runs.map(r => el('tr', {},
        el('td', {}, String(r.id)), el('td', {}, r.kind), el('td', {}, el('span', {class: `badge run-${r.status}`}, r.status)),
        el('td', {}, formatTime(r.startedAt)), el('td', {}, formatTime(r.finishedAt)), el('td', {}, r.message ?? ''))));
}

function renderActivity(activity) {
  fill('activity', activity.length === 0
    ? el('li', {class: 'muted'}, 'no triage actions yet')
    : activity.map(a => el('li', {},
        el('span', {class: 'muted'}, formatTime(a.at)), ' ', el('strong', {}, a.author), ' ', a.action, ' ',
        el('a', {href: raceHref(a.race)}, a.race), a.note ? el('q', {}, a.note) : null)));
}

let shownActivityId = null;
let shownRunId = null;

/** Runs and triage actions are not in the event itself: reload them when the event says they changed. */
async function refreshListsIfChanged(progress) {
  const runId = progress.latestRun ? `${progress.latestRun.id}:${progress.latestRun.status}` : null;
  if (progress.lastActivityId === shownActivityId && runId === shownRunId) return;
  shownActivityId = progress.lastActivityId;
  shownRunId = runId;
  const overview = await api('/api/overview');
  renderRuns(overview.recentRuns);
  renderActivity(overview.recentActivity);
}

function listen() {
  const live = document.getElementById('live');
  const events = new EventSource('/api/events');
  events.addEventListener('progress', e => {
    const progress = JSON.parse(e.data);
    renderProgress(progress);
    renderCounts(progress.counts);
    refreshListsIfChanged(progress).catch(showError);
    live.textContent = '● live';
    live.className = 'live on';
  });
  events.onerror = () => {
    live.textContent = '○ reconnecting';
    live.className = 'live';
  };
}

async function main() {
  showSession().catch(showError);
  try {
    const overview = await api('/api/overview');
    setText('project', overview.project);
    renderCounts(overview.counts);
    renderProgress(overview.progress);
    renderRuns(overview.recentRuns);
    renderActivity(overview.recentActivity);
    shownActivityId = overview.progress.lastActivityId;
    const latest = overview.progress.latestRun;
    shownRunId = latest ? `${latest.id}:${latest.status}` : null;
    listen();
  } catch (error) {
    showError(error);
  }
}

main();
