import {api, el, fill, setText, showError, clearError, showSession, formatTime} from './common.js';

const raceId = decodeURIComponent(location.pathname.substring('/races/'.length));
const charts = {};
let current = null;

function renderHeader(race, view) {
  document.title = `racetriage — ${race.id}`;
  setText('field', race.id);
  fill('verdict', race.verdict).className = `badge verdict-${race.verdict}`;
  fill('state', race.state).className = `badge state-${race.state}`;
  document.getElementById('test-code').hidden = !race.testCode;
  setText('kinds', `${race.kinds.join(' + ')} race · ${race.tests} tests · ${race.trials} trials · last seen ${formatTime(race.lastSeenAt)}`);
  setText('verdict-summary', view.summary ?? 'No verdict yet.');
  if (race.state === 'fixed') {
    const fixed = view.lifecycle.filter(e => e.state === 'fixed').pop();
    fill('mark', 'Fixed: ', fixed ? `${fixed.note} (run #${fixed.runId}${fixed.commit ? ', commit ' + fixed.commit : ''}, `
      + `${formatTime(fixed.at)})` : 'no longer detected.', ' It is left out of counts, diagnostics and exports.');
  } else if (race.mark) {
    fill('mark', 'Marked trusted-benign by ', el('strong', {}, race.mark.author), ` on ${formatTime(race.mark.markedAt)}: `,
      el('q', {}, race.mark.note));
  } else {
    setText('mark', 'Open: no trusted-benign mark.');
  }
  document.getElementById('mark-benign').disabled = race.state === 'trusted-benign';
  document.getElementById('reopen').disabled = race.state === 'open';
}

function sourceBlock(source) {
  if (!source) return el('p', {class: 'muted'}, 'source not found in the project');
  const lines = source.lines.map((text, i) => {
    const number = source.firstLine + i;
    return el('div', {class: number === source.focusLine ? 'line focus' : 'line'},
      el('span', {class: 'ln'}, String(number)), el('code', {}, text));
  });
  return el('div', {class: 'source'}, el('div', {class: 'source-path muted'}, source.path), lines);
}

function renderAccesses(accesses) {
  fill('accesses', accesses.length === 0 ? el('p', {class: 'muted'}, 'no access recorded') : accesses.map(a =>
    el('article', {class: 'access'},
      el('h3', {}, el('span', {class: `badge access-${a.type.toLowerCase()}`}, a.type.toLowerCase()),
        a.thread ? [' in thread ', el('code', {}, a.thread)] : ' (thread not recorded)',
        ' at ', el('code', {}, `${a.file ?? '?'}:${a.line}`)),
      sourceBlock(a.source),
      // the detector keeps the stack of the access that found the race; of the earlier one only its place
      a.stack.length === 0 ? el('p', {class: 'muted'}, 'stack: not recorded')
        : el('details', {}, el('summary', {}, `stack (${a.stack.length} frames)`),
          el('pre', {class: 'stack'}, a.stack.join('\n'))))));
}

function percent(rate) {
  return (rate * 100).toFixed(1) + ' %';
}

function renderTrials(view) {
  fill('heuristics', view.heuristics.length === 0
    ? el('tr', {}, el('td', {colspan: '9', class: 'muted'}, 'no trials yet'))
    : view.heuristics.map(h => el('tr', {class: h.failures + h.timeouts > 0 ? 'failing' : ''},
        el('td', {}, h.heuristic === 'sc' ? `${h.heuristic} (control)` : h.heuristic),
        el('td', {class: 'num'}, String(h.runs)), el('td', {class: 'num'}, String(h.failures)),
        el('td', {class: 'num'}, String(h.timeouts)), el('td', {class: 'num'}, String(h.reads)),
        el('td', {class: 'num'}, String(h.staleReads)), el('td', {class: 'num'}, percent(h.failureRate)),
        el('td', {class: 'num'}, percent(h.staleReadRate)),
        el('td', {class: 'num'}, `${h.medianDurationMs} ms`), el('td', {class: 'num'}, `${h.maxDurationMs} ms`))));
  const m = view.matrix;
  fill('matrix-head', el('tr', {}, el('th', {}, 'test'), m.heuristics.map(h => el('th', {}, h))));
  fill('matrix', m.rows.map(r => el('tr', {}, el('td', {class: 'test'}, r.test), r.cells.map(c =>
    el('td', {class: c.runs === 0 ? 'num muted' : (c.failures + c.timeouts > 0 ? 'num failing' : 'num')},
      c.runs === 0 ? '—' : `${c.failures + c.timeouts}/${c.runs}`)))));
  renderCharts(view.heuristics, view.durationsMs);
}

function renderCharts(heuristics, durations) {
  if (!window.Chart || heuristics.length === 0) return;
  const labels = heuristics.map(h => h.heuristic);
  const draw = (id, config) => {
    charts[id]?.destroy();
    charts[id] = new window.Chart(document.getElementById(id), config);
  };
  draw('rate-chart', {
    type: 'bar',
    data: {labels, datasets: [
      {label: 'failure rate (failed runs / runs, %)', data: heuristics.map(h => +(h.failureRate * 100).toFixed(2)),
        backgroundColor: '#c62828'},
      {label: 'stale-read rate (stale reads / reads, %)', data: heuristics.map(h => +(h.staleReadRate * 100).toFixed(2)),
        backgroundColor: '#1565c0'}]},
    options: {animation: false, scales: {y: {beginAtZero: true, max: 100}}}
  });
  // Bars: median per heuristic; dots: every trial, so a slowdown (qos) shows as a shifted cloud, not just a taller bar.
  const dots = Object.entries(durations).flatMap(([heuristic, values]) => values.map(ms => ({x: heuristic, y: ms})));
  draw('duration-chart', {
    type: 'bar',
    data: {labels, datasets: [
      {label: 'median duration (ms)', data: heuristics.map(h => h.medianDurationMs), backgroundColor: '#b2dfdb'},
      {type: 'scatter', label: 'trial duration (ms)', data: dots, backgroundColor: '#00695c', pointRadius: 3}]},
    options: {animation: false, scales: {x: {type: 'category', labels}, y: {beginAtZero: true}}}
  });
}

function renderEvidence(view) {
  setText('failure', view.firstFailure ?? 'No failure recorded.');
  setText('replay', view.replayCommand ?? 'No trial recorded to replay.');
  setText('java-command', view.javaCommand ?? 'none recorded');
  fill('tests', view.tests.length === 0 ? el('li', {class: 'muted'}, 'none recorded') : view.tests.map(t => el('li', {}, el('code', {}, t))));
  // verdicts and lifecycle changes (fixed, regressed) in one history, newest first; the facts behind a fold
  const rows = view.verdictHistory.map(v => ({at: v.decidedAt, row: el('tr', {},
      el('td', {}, formatTime(v.decidedAt)), el('td', {}, el('span', {class: `badge verdict-${v.verdict}`}, v.verdict)),
      el('td', {}, v.summary, Object.keys(v.facts).length === 0 ? null :
        el('details', {}, el('summary', {}, 'details'),
          el('ul', {class: 'facts'}, Object.keys(v.facts).sort().map(k => el('li', {}, `${k}: ${v.facts[k]}`))))))}))
    .concat(view.lifecycle.map(e => ({at: e.at, row: el('tr', {class: `lifecycle-${e.state}`},
      el('td', {}, formatTime(e.at)), el('td', {}, el('span', {class: `badge state-${e.state}`}, e.state)),
      el('td', {}, `${e.note} (run #${e.runId}${e.commit ? ', commit ' + e.commit : ''})`))})));
  rows.sort((a, b) => String(b.at).localeCompare(String(a.at)));
  fill('history', rows.length === 0
    ? el('tr', {}, el('td', {colspan: '3', class: 'muted'}, 'no verdict yet'))
    : rows.map(r => r.row));
  fill('audit', view.audit.length === 0 ? el('li', {class: 'muted'}, 'no triage actions yet') : view.audit.slice().reverse().map(a =>
    el('li', {}, el('span', {class: 'muted'}, formatTime(a.at)), ' ', el('strong', {}, a.author), ' ', a.action,
      a.note ? el('q', {}, a.note) : null)));
}

function renderCandidate(candidate) {
  const section = document.getElementById('candidate-section');
  section.hidden = !candidate;
  if (!candidate) return;
  fill('candidate',
    el('p', {}, 'Flagged at ', el('code', {}, `${candidate.file}:${candidate.line}`),
      ` with confidence ${(candidate.confidence * 100).toFixed(0)} %`,
      candidate.patterns.length ? ` (${candidate.patterns.join(', ')})` : ''),
    el('ul', {}, candidate.reasons.map(reason => el('li', {}, reason))));
}

async function load() {
  try {
    const view = await api('/api/races/' + encodeURIComponent(raceId));
    clearError();
    current = view;
    renderHeader(view.race, view);
    renderAccesses(view.accesses);
    renderTrials(view);
    renderEvidence(view);
    renderCandidate(view.candidate);
  } catch (error) {
    showError(error);
  }
}

async function act(path, body, done) {
  const status = document.getElementById('triage-status');
  const author = document.getElementById('author').value.trim();
  if (author) localStorage.setItem('racetriage.author', author);
  try {
    await api('/api/races/' + encodeURIComponent(raceId) + path, {method: 'POST', body: {...body, author: author || undefined}});
    status.textContent = done;
    document.getElementById('note').value = '';
    await load();
  } catch (error) {
    status.textContent = '';
    showError(error);
  }
}

function main() {
  showSession().catch(showError);
  document.getElementById('author').value = localStorage.getItem('racetriage.author') ?? '';
  const note = () => document.getElementById('note').value.trim();
  document.getElementById('mark-benign').addEventListener('click', () => {
    if (!note()) { showError(new Error('Write a note: why is this race harmless?')); return; }
    const body = {state: 'trusted-benign', note: note()};
    if (current?.race.verdict === 'destructive') {
      // the mark overrides failing evidence: say which, and ask
      const evidence = current.summary ?? 'a test failed with stale values';
      const failure = (current.firstFailure ?? '').split('\n')[0];
      if (!window.confirm(`${current.race.id} is destructive: ${evidence}${failure ? '\n' + failure : ''}\n\n`
          + 'Marking it trusted-benign overrides this evidence; the audit log records the override and a triage '
          + 'still fails on it unless --allow-overridden. Mark it anyway?')) return;
      body.overrideDestructive = true;
    }
    act('/triage', body, 'Marked trusted-benign.');
  });
  document.getElementById('reopen').addEventListener('click', () =>
    act('/triage', {state: 'open', note: note() || undefined}, 'Reopened.'));
  document.getElementById('comment').addEventListener('click', () => {
    if (!note()) { showError(new Error('Write the comment in the note field.')); return; }
    act('/comments', {text: note()}, 'Comment added.');
  });
  load();
}

main();
