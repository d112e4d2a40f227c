// Cairn console: reads the gateway's management endpoints every two seconds and draws them.
// Plain JavaScript, no library: the gateway serves this file as it is.
'use strict';

// the charts read the open /metrics every 2 s; the admin reads (audited, each a line in the
// gateway's audit trail) every 5 s, every 2 s while a backup or restore runs, and none while the
// tab is hidden or lacks credentials
const METRICS_POLL_MS = 2000;
const ADMIN_POLL_MS = 5000;
const HISTORY_MS = 5 * 60 * 1000;
const LEDGER_OPERATIONS = new Set(['CreateAccount', 'Deposit', 'Transfer', 'GetAccount']);
const POSITIVE_ID = /^[1-9][0-9]{0,18}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const PAGES = ['overview', 'backups', 'restore'];
const CREDENTIALS_KEY = 'cairn.console.authorization';

const state = {
  page: 'overview',
  authorization: sessionStorage.getItem(CREDENTIALS_KEY) || '',
  askedForCredentials: false,
  history: [],          // {t, rate, errors, meanMs, maxMs}, one per scrape, last 5 minutes
  lastScrape: null,     // {t, count, errors, sum}
  expanded: new Set(),  // backup ids whose partitions are shown
  backups: [],
  schedule: null,
  restorePoints: null,  // the archive's newest points, or null when they could not be read
  refused: false,       // the last admin read got 401 or 403: wait for new credentials
  adminReadAt: 0,       // when the admin reads last ran
  running: false,       // a backup or restore the page shows runs: follow it every 2 s
};

// ---------------------------------------------------------------------------------------------
// small helpers

function $(id) {
  return document.getElementById(id);
}

/** Builds an element; strings become text nodes (never HTML). */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attributes, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function badge(text) {
  return el('span', { class: 'badge ' + text }, text.replaceAll('_', ' '));
}

function bytes(count) {
  if (count === undefined || count === null) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit === 0 ? value : value.toFixed(1)) + ' ' + units[unit];
}

function duration(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
  if (ms < 1000) return Math.round(ms) + ' ms';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return seconds + ' s';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + ' min ' + (seconds % 60) + ' s';
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return hours + ' h ' + (minutes % 60) + ' min';
  return Math.floor(hours / 24) + ' d ' + (hours % 24) + ' h';
}

function time(ms) {
  return new Date(ms).toLocaleString();
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString();
}

// ---------------------------------------------------------------------------------------------
// talking to the gateway

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads JSON, keeping integers of 16 digits or more (ids up to 2^63 - 1) as strings: a JavaScript
 * number would round them, and a rounded id shown or sent back names another backup.
 */
function parseJson(text) {
  if (!text) return null;
  try {
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
  } catch (e) {
    // such digits inside a string value: read it as it is
    return JSON.parse(text);
  }
}

/**
 * Calls the gateway (paths relative to the page, so that a proxy may serve the gateway under a
 * prefix); a failure throws ApiError with the problem detail the gateway answered.
 */
async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (state.authorization) headers.Authorization = state.authorization;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch('..' + path, { method, headers, body, cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, `${method} ${path}: the gateway did not answer (${e.message})`);
  }
  const text = await response.text();
  let json = null;
  try {
    json = parseJson(text);
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    const detail = json && json.detail ? json.detail : text || response.statusText;
    throw new ApiError(response.status, `${method} ${path}: ${response.status} ${detail}`);
  }
  return json;
}

function showError(message, sticky) {
  $('error-text').textContent = message;
  $('error').hidden = false;
  $('error').dataset.sticky = sticky ? 'true' : 'false';
}

function clearRefreshError() {
  if ($('error').dataset.sticky !== 'true') $('error').hidden = true;
}

function showNotice(message) {
  $('notice-text').textContent = message;
  $('notice').hidden = false;
}

/**
 * A refresh failed: shown until one works. After 401 or 403 the page stops reading until it is
 * given other credentials (each refused call is a line in the gateway's audit trail); 401 asks
 * for them, once.
 */
function refreshFailed(error) {
  if (error.status === 401 || error.status === 403) state.refused = true;
  if (error.status === 401 && !state.askedForCredentials) {
    state.askedForCredentials = true;
    askForCredentials(error.message);
  }
  if ($('error').dataset.sticky !== 'true') showError(error.message, false);
}

function askForCredentials(reason) {
  $('credentials-reason').textContent = reason || '';
  $('credentials-value').value = state.authorization;
  if (!$('credentials').open) $('credentials').showModal();
}

/** Asks before an admin action; resolves true when confirmed. */
function confirmAction(title, text) {
  const dialog = $('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }),
  );
}

async function runAction(title, text, call, done) {
  if (!(await confirmAction(title, text))) return;
  try {
    const answer = await call();
    $('error').hidden = true;
    showNotice(done(answer));
  } catch (error) {
    showError(error.message, true);
    if (error.status === 401) askForCredentials(error.message);
  }
  refresh();
}

// ---------------------------------------------------------------------------------------------
// throughput and latency from the gateway's /metrics

function labels(text) {
  const result = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) result[match[1]] = match[2];
  return result;
}

/** The gateway's request timer (cairn.gateway.request.latency in docs/metrics.md) as scraped. */
const LATENCY_SERIES = {
  cairn_gateway_request_latency_seconds_count: 'count',
  cairn_gateway_request_latency_seconds_sum: 'sum',
  cairn_gateway_request_latency_seconds_max: 'max',
};

/** Sums the ledger operations' request timer over /metrics' Prometheus text. */
function ledgerTotals(text) {
  const totals = { count: 0, errors: 0, sum: 0, max: 0 };
  const line = /^(\w+)\{([^}]*)\} (\S+)/;
  for (const row of text.split('\n')) {
    const match = line.exec(row);
    const series = match && LATENCY_SERIES[match[1]];
    if (!series) continue;
    const tags = labels(match[2]);
    if (!LEDGER_OPERATIONS.has(tags.operation)) continue;
    const value = Number(match[3]);
    if (series === 'count') {
      totals.count += value;
      if (tags.result !== 'ok') totals.errors += value;
    } else if (series === 'sum') {
      totals.sum += value;
    } else {
      totals.max = Math.max(totals.max, value);
    }
  }
  return totals;
}

async function scrape() {
  const response = await fetch('../metrics', { cache: 'no-store' });
  if (!response.ok) throw new ApiError(response.status, `GET /metrics: ${response.status}`);
  const now = Date.now();
  const totals = ledgerTotals(await response.text());
  const last = state.lastScrape;
  state.lastScrape = { t: now, ...totals };
  if (!last || totals.count < last.count) return; // first scrape, or the gateway restarted
  const seconds = (now - last.t) / 1000;
  const count = totals.count - last.count;
  state.history.push({
    t: now,
    rate: count / seconds,
    errors: (totals.errors - last.errors) / seconds,
    meanMs: count > 0 ? ((totals.sum - last.sum) / count) * 1000 : null,
    maxMs: totals.max * 1000,
  });
  while (state.history.length && state.history[0].t < now - HISTORY_MS) state.history.shift();
}

/** Draws series of {t, v} over the last five minutes, the y axis from 0 to a round maximum. */
function drawChart(target, series) {
  const width = 600;
  const height = 180;
  const left = 44;
  const bottom = 20;
  const now = Date.now();
  const values = series.flatMap((s) => s.points.map((p) => p.v)).filter((v) => v !== null);
  const top = roundUp(Math.max(1, ...values));
  const x = (t) => left + ((t - (now - HISTORY_MS)) / HISTORY_MS) * (width - left - 6);
  const y = (v) => height - bottom - (v / top) * (height - bottom - 8);
  const nodes = [];
  for (let i = 0; i <= 4; i++) {
    const v = (top * i) / 4;
    nodes.push(svg('line', { class: 'grid', x1: left, x2: width - 6, y1: y(v), y2: y(v) }));
    nodes.push(svg('text', { x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, format(v)));
  }
  for (const minutes of [5, 4, 3, 2, 1, 0]) {
    const label = minutes === 0 ? 'now' : `−${minutes} min`;
    nodes.push(svg('text', { x: x(now - minutes * 60000), y: height - 4, 'text-anchor': 'middle' }, label));
  }
  let legendX = left + 8;
  for (const s of series) {
    const points = s.points.filter((p) => p.v !== null).map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`);
    if (points.length > 1) nodes.push(svg('polyline', { class: s.cls, points: points.join(' ') }));
    nodes.push(svg('line', { class: s.cls, x1: legendX, x2: legendX + 16, y1: 12, y2: 12 }));
    nodes.push(svg('text', { x: legendX + 20, y: 16 }, s.name));
    legendX += 30 + s.name.length * 6;
  }
  if (values.length === 0) {
    nodes.push(svg('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle' }, 'no ledger requests yet'));
  }
  target.replaceChildren(...nodes);
}

function roundUp(value) {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function format(value) {
  return value >= 100 ? Math.round(value).toString() : Number(value.toFixed(1)).toString();
}

function drawMetrics() {
  const h = state.history;
  const latest = h.length ? h[h.length - 1] : null;
  $('rate-now').textContent = latest ? format(latest.rate) : '–';
  drawChart($('chart-throughput'), [
    { name: 'succeeded', cls: 'series-ok', points: h.map((p) => ({ t: p.t, v: p.rate - p.errors })) },
    { name: 'errors', cls: 'series-bad', points: h.map((p) => ({ t: p.t, v: p.errors })) },
  ]);
  drawChart($('chart-latency'), [
    { name: 'mean', cls: 'series-mean', points: h.map((p) => ({ t: p.t, v: p.meanMs })) },
    { name: 'max (recent)', cls: 'series-max', points: h.map((p) => ({ t: p.t, v: p.maxMs })) },
  ]);
}

// ---------------------------------------------------------------------------------------------
// overview: topology

function renderClusterName(topology) {
  $('cluster-name').textContent = topology.clusterId
    ? `cluster ${topology.clusterId}`
    : 'no broker has answered yet';
}

function renderTopology(topology) {
  const brokers = topology.brokers;
  const reachable = brokers.filter((b) => b.reachable).length;
  const led = topology.partitions.filter((p) => p.leaderNodeId >= 0).length;
  renderClusterName(topology);
  $('brokers-count').textContent = `${reachable} / ${brokers.length}`;
  $('leaders-count').textContent = `${led} / ${topology.partitionCount}`;
  $('replication').textContent = topology.replicationFactor || '–';
  $('partitions').tBodies[0].replaceChildren(
    ...topology.partitions.map((p) => {
      const replicas = brokers.flatMap((b) =>
        b.replicas
          .filter((r) => r.partitionId === p.partitionId)
          .map((r) => el('span', { title: r.healthReason || r.health }, `node ${b.nodeId} `, badge(r.role))),
      );
      return el(
        'tr',
        { 'data-partition': p.partitionId },
        el('td', {}, p.partitionId),
        el('td', {}, p.leaderNodeId >= 0 ? `node ${p.leaderNodeId}` : 'none'),
        el('td', {}, p.term),
        el('td', {}, badge(p.health)),
        el('td', {}, el('div', { class: 'chips' }, replicas)),
      );
    }),
  );
  $('brokers').tBodies[0].replaceChildren(
    ...brokers.map((b) =>
      el(
        'tr',
        { 'data-node': b.nodeId },
        el('td', {}, b.nodeId),
        el('td', {}, b.address),
        el('td', {}, b.reachable ? badge('UP') : el('span', {}, badge('UNREACHABLE'), ' ', b.error)),
        el('td', {}, b.version || '–'),
        el(
          'td',
          {},
          el(
            'div',
            { class: 'chips' },
            b.replicas.map((r) =>
              el('span', { title: r.healthReason || r.health }, `P${r.partitionId} `, badge(r.health === 'HEALTHY' ? r.role : r.health)),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// backups

/** Start, end and totals of a backup from its partitions' entries. */
function summarize(backup) {
  const details = backup.details || [];
  const created = details.map((d) => Date.parse(d.createdAt)).filter((t) => !Number.isNaN(t));
  const updated = details.map((d) => Date.parse(d.lastUpdatedAt)).filter((t) => !Number.isNaN(t));
  const started = created.length ? Math.min(...created) : null;
  const ended = updated.length ? Math.max(...updated) : null;
  const running = backup.state === 'IN_PROGRESS';
  return {
    started,
    ended,
    took: started === null ? null : (running ? Date.now() : ended) - started,
    size: details.reduce((sum, d) => sum + (d.sizeBytes || 0), 0),
    files: details.reduce((sum, d) => sum + (d.fileCount || 0), 0),
  };
}

function renderBackups() {
  const backups = state.backups;
  state.running = backups.some((b) => b.state === 'IN_PROGRESS');
  $('backup-count').textContent = `(${backups.length})`;
  const rows = [];
  for (const backup of backups) {
    const s = summarize(backup);
    const id = String(backup.backupId);
    const remove = el('button', { class: 'danger', type: 'button', 'data-delete': id }, 'Delete');
    remove.disabled = backup.state === 'IN_PROGRESS';
    remove.addEventListener('click', (event) => {
      event.stopPropagation();
      deleteBackup(id);
    });
    const row = el(
      'tr',
      { class: 'expandable', 'data-backup': id, title: 'Show the partitions' },
      el('td', {}, id),
      el('td', {}, badge(backup.state), backup.failureReason ? el('div', { class: 'muted' }, backup.failureReason) : null),
      el('td', {}, s.started === null ? '–' : time(s.started)),
      el('td', {}, backup.state === 'IN_PROGRESS' ? `running for ${duration(s.took)}` : duration(s.took)),
      el('td', {}, bytes(s.size)),
      el('td', {}, s.files),
      el('td', {}, el('div', { class: 'chips' }, (backup.details || []).map((d) => el('span', {}, `P${d.partitionId} `, badge(d.state))))),
      el('td', {}, remove),
    );
    row.addEventListener('click', () => {
      if (state.expanded.has(id)) state.expanded.delete(id);
      else state.expanded.add(id);
      renderBackups();
    });
    rows.push(row);
    if (state.expanded.has(id)) rows.push(backupDetails(backup));
  }
  if (rows.length === 0) {
    rows.push(el('tr', {}, el('td', { colspan: 8, class: 'muted' }, 'No backups in the store yet.')));
  }
  $('backups').tBodies[0].replaceChildren(...rows);
}

function backupDetails(backup) {
  const table = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ['Partition', 'Node', 'State', 'Position', 'Size', 'Files', 'Snapshot', 'Digest', 'Reason'].map((h) => el('th', {}, h)))),
    el(
      'tbody',
      {},
      (backup.details || []).map((d) =>
        el(
          'tr',
          {},
          el('td', {}, d.partitionId),
          el('td', {}, d.nodeId),
          el('td', {}, badge(d.state)),
          el('td', {}, d.checkpointPosition ?? '–'),
          el('td', {}, bytes(d.sizeBytes)),
          el('td', {}, d.fileCount ?? '–'),
          el('td', {}, d.snapshotId || '–'),
          el('td', {}, d.stateDigest ? d.stateDigest.slice(0, 16) + '…' : '–'),
          el('td', {}, d.failureReason || ''),
        ),
      ),
    ),
  );
  return el('tr', { class: 'details' }, el('td', { colspan: 8 }, table));
}

function renderSchedule(schedule, problem) {
  const list = $('schedule');
  if (!schedule) {
    list.replaceChildren(el('dt', {}, 'Schedule'), el('dd', {}, problem || 'unknown'));
    return;
  }
  const rows = [];
  const add = (name, ...value) => rows.push(el('dt', {}, name), el('dd', {}, ...value));
  add('Every', schedule.cron ? `cron ${schedule.cron}` : schedule.interval, ` (run by node ${schedule.nodeId})`);
  const next = Date.parse(schedule.nextRunAt);
  add('Next backup', `${time(next)} (in ${duration(Math.max(0, next - Date.now()))}), id ${schedule.nextBackupId}`);
  if (schedule.lastRun) {
    const run = schedule.lastRun;
    add(
      'Last run',
      `backup ${run.backupId}: ${run.outcome}, attempt ${run.attempt}, ended ${time(Date.parse(run.finishedAt))} `,
      run.backupState ? badge(run.backupState) : null,
      run.detail ? el('div', { class: 'muted' }, run.detail) : null,
    );
  } else {
    add('Last run', 'none yet');
  }
  add('Failures in a row', schedule.consecutiveFailures);
  if (schedule.retention) {
    const r = schedule.retention;
    const limits = [];
    if (r.maxCount !== undefined) limits.push(`at most ${r.maxCount}`);
    if (r.maxAge !== undefined) limits.push(`none older than ${r.maxAge}`);
    limits.push(`always the newest ${r.minCount}`);
    add('Retention', limits.join(', '));
    if (r.lastPass) {
      const deleted = r.lastPass.deletedBackupIds.length;
      add(
        'Last retention pass',
        `${time(Date.parse(r.lastPass.finishedAt))}: kept ${r.lastPass.kept}, deleted ${deleted}`,
        r.lastPass.failure ? el('div', { class: 'muted' }, r.lastPass.failure) : null,
      );
    }
  } else {
    add('Retention', 'not configured: backups are kept until deleted');
  }
  if (schedule.markers) {
    const m = schedule.markers;
    add('Markers every', m.interval);
    if (m.lastMarker) {
      add('Last marker', `${m.lastMarker.markerId}: ${m.lastMarker.outcome}, ${time(Date.parse(m.lastMarker.finishedAt))}`);
    }
  }
  list.replaceChildren(...rows);
}

async function refreshBackups() {
  const [backups, schedule] = await Promise.allSettled([
    api('GET', '/actuator/backups'),
    api('GET', '/actuator/backups/schedule'),
  ]);
  if (backups.status === 'rejected') throw backups.reason;
  state.backups = backups.value;
  if (schedule.status === 'fulfilled') {
    state.schedule = schedule.value;
    renderSchedule(schedule.value);
  } else {
    if (schedule.reason.status === 401) throw schedule.reason;
    state.schedule = null;
    // 409 is the normal answer of a cluster without a schedule: say so, not as an error
    renderSchedule(null, schedule.reason.status === 409 ? 'not configured (backup.schedule.interval)' : schedule.reason.message);
  }
  renderBackups();
}

/** Milliseconds of an ISO-8601 duration of hours, minutes and seconds (PT1H30M, PT0.5S). */
function durationMillis(iso) {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(iso || '');
  if (!match) return 0;
  const seconds = (Number(match[1] || 0) * 60 + Number(match[2] || 0)) * 60 + Number(match[3] || 0);
  return Math.round(seconds * 1000); // whole milliseconds: BigInt takes no fraction
}

/**
 * The id a backup gets when none is typed: the time in milliseconds, as the schedule's ids are
 * (slot starts); one above the newest backup or marker when that is higher; and, with markers,
 * one above the next marker's slot, whose marker could otherwise reach a partition first and make
 * this id too low (that marker is then skipped as superseded). Chosen when confirmed.
 */
function nextBackupId() {
  const now = BigInt(Date.now());
  let id = now;
  const above = (value) => {
    if (value !== undefined && value !== null && BigInt(String(value)) + 1n > id) {
      id = BigInt(String(value)) + 1n;
    }
  };
  if (state.backups.length) above(state.backups[0].backupId);
  const markers = state.schedule && state.schedule.markers;
  if (markers) {
    if (markers.lastMarker) above(markers.lastMarker.markerId);
    const interval = BigInt(durationMillis(markers.interval));
    if (interval > 0n) above((now / interval + 1n) * interval);
  }
  return String(id);
}

async function takeBackup(event) {
  event.preventDefault();
  const input = $('take-id');
  const typed = input.value.trim();
  if (typed !== '' && !POSITIVE_ID.test(typed)) {
    showError(`Expected the backup id to be an integer >= 1, but was '${typed}'`, true);
    return;
  }
  let id = typed;
  await runAction(
    typed ? `Take backup ${typed}?` : 'Take a backup with the next id?',
    'Every partition writes a checkpoint into its log; its leader then copies the snapshot and the log up to it into the backup store.',
    () => {
      id = typed || nextBackupId();
      // the id is sent as the digits typed: a JavaScript number would round ids above 2^53
      return api('POST', '/actuator/backups', `{"backupId": ${id}}`);
    },
    () => `Backup ${id} taken on every partition; it shows as IN PROGRESS until each partition's copy is complete.`,
  );
  input.value = '';
}

function deleteBackup(id) {
  runAction(
    `Delete backup ${id}?`,
    `Every partition's copy of backup ${id} is deleted from the store. This cannot be undone.`,
    () => api('DELETE', `/actuator/backups/${id}`),
    () => `Backup ${id} deleted.`,
  );
}

// ---------------------------------------------------------------------------------------------
// restore points and restore

/**
 * What the timeline shows: the backups, and the log archive's restore points (from
 * /actuator/restore-points; without them, only the schedule's last marker).
 */
function restorePoints() {
  const points = [];
  for (const backup of state.backups) {
    const s = summarize(backup);
    // a backup restores the state at its checkpoint, taken when it started
    const at = backup.state === 'COMPLETED' || backup.state === 'IN_PROGRESS' ? s.started : s.ended;
    if (at !== null) points.push({ at, kind: backup.state, label: `backup ${backup.backupId} ${backup.state}` });
  }
  if (state.restorePoints) {
    for (const p of state.restorePoints) {
      points.push({
        at: Date.parse(p.takenAt),
        kind: p.restorable ? 'archive' : 'archive-pending',
        id: String(p.checkpointId),
        label: `restore point ${p.checkpointId}${p.restorable ? '' : ` (${p.detail})`}`,
      });
    }
    return points;
  }
  const marker = state.schedule && state.schedule.markers && state.schedule.markers.lastMarker;
  if (marker && (marker.outcome === 'taken' || marker.outcome === 'already_taken')) {
    points.push({ at: Date.parse(marker.finishedAt), kind: 'marker', id: String(marker.markerId), label: `marker ${marker.markerId}` });
  }
  return points;
}

function drawTimeline(points) {
  const width = 1000;
  const now = Date.now();
  const oldest = points.length ? Math.min(...points.map((p) => p.at)) : now - 300000;
  const span = Math.max(now - oldest, 300000) * 1.05;
  const x = (t) => 20 + ((t - (now - span)) / span) * (width - 40);
  const nodes = [svg('line', { class: 'grid', x1: 20, x2: width - 20, y1: 40, y2: 40 })];
  for (let i = 0; i <= 4; i++) {
    const t = now - span + (span * i) / 4;
    const anchor = i === 0 ? 'start' : i === 4 ? 'end' : 'middle';
    nodes.push(svg('text', { x: x(t), y: 78, 'text-anchor': anchor }, clock(t)));
  }
  for (const p of points) {
    const small = p.kind === 'marker' || p.kind.startsWith('archive');
    const dot = svg('circle', { class: 'point-' + p.kind, cx: x(p.at), cy: small ? 52 : 40, r: small ? 4 : 6 });
    dot.append(svg('title', {}, `${p.label}, ${time(p.at)}`));
    nodes.push(dot);
  }
  nodes.push(svg('line', { class: 'now', x1: x(now), x2: x(now), y1: 20, y2: 60 }));
  nodes.push(svg('text', { x: x(now), y: 14, 'text-anchor': 'end' }, 'now'));
  $('timeline').replaceChildren(...nodes);
}

function renderRestorePoints() {
  const points = restorePoints();
  const restorable = points.filter((p) => p.kind === 'COMPLETED' || p.kind === 'marker' || p.kind === 'archive');
  const newest = restorable.length ? Math.max(...restorable.map((p) => p.at)) : null;
  $('rpo').textContent = newest === null ? 'no restore point' : duration(Date.now() - newest);
  const backup = state.backups.find((b) => b.state === 'COMPLETED');
  $('newest-backup').textContent = backup ? `${backup.backupId}` : 'none';
  const point = points.find((p) => p.kind === 'archive' || p.kind === 'marker');
  $('newest-point').textContent = point ? point.id : 'none';
  drawTimeline(points);
  renderPointList();
}

/** The archive's newest restore points; while a restore can be asked, Use fills its form. */
function renderPointList() {
  const body = $('restore-points').querySelector('tbody');
  const listed = state.restorePoints || [];
  const formShown = !$('restore-form').hidden;
  $('restore-points').hidden = listed.length === 0;
  body.replaceChildren(
    ...listed.slice(0, 10).map((p) => {
      const use = el('button', { type: 'button', 'data-use': String(p.checkpointId) }, 'Use');
      use.addEventListener('click', () => {
        $('restore-target').value = 'checkpointId';
        $('restore-value').value = String(p.checkpointId);
      });
      return el(
        'tr',
        {},
        el('td', {}, String(p.checkpointId)),
        el('td', {}, time(Date.parse(p.takenAt))),
        el('td', {}, p.restorable ? 'yes' : `no: ${p.detail}`),
        el('td', {}, p.restorable && formShown ? use : ''),
      );
    }),
  );
}

function renderRestore(restore) {
  state.running = restore.state === 'IN_PROGRESS';
  const panel = $('restore-state');
  const form = $('restore-form');
  const table = $('restore-partitions');
  // what "the latest backup" or a time resolved to, unless the selection says it already
  const resolved = [];
  if (String(restore.backupId) !== '0') resolved.push(`backup ${restore.backupId}`);
  if (String(restore.restorePointId) !== '0') resolved.push(`restore point ${restore.restorePointId}`);
  const unsaid = resolved.filter((r) => r !== restore.selection);
  const stateLine = el(
    'p',
    {},
    'State: ',
    badge(restore.state),
    restore.selection ? ` — ${restore.selection}` : '',
    unsaid.length ? ` (${unsaid.join(', ')})` : '',
  );
  if (restore.state === 'NOT_IN_RESTORE_MODE') {
    panel.replaceChildren(
      stateLine,
      el(
        'p',
        { class: 'muted' },
        'This cluster runs on its own data. A restore through the API fills a new cluster whose brokers started with empty data directories and data.restoreMode: true (cairn cluster up --restore-mode); the console of that cluster’s gateway starts it. Offline: cairn restore.',
      ),
    );
  } else {
    const brokers = (restore.brokers || []).map((b) => el('div', {}, `node ${b.nodeId}: `, badge(b.phase), b.detail ? ` ${b.detail}` : ''));
    panel.replaceChildren(stateLine, ...brokers);
  }
  // a failed start that started nothing may be tried again; the gateway says when not
  form.hidden = restore.state !== 'WAITING' && restore.state !== 'FAILED';
  const partitions = restore.partitions || [];
  table.hidden = partitions.length === 0;
  table.tBodies[0].replaceChildren(
    ...partitions.map((p) => {
      const share = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 0;
      const bar = el('div', {});
      bar.style.width = `${(share * 100).toFixed(1)}%`;
      return el(
        'tr',
        {},
        el('td', {}, p.partitionId),
        el('td', {}, p.nodeId),
        el('td', {}, badge(p.phase)),
        el('td', {}, p.bytesTotal > 0 ? [el('span', { class: 'progress' }, bar), ` ${bytes(p.bytesDone)} of ${bytes(p.bytesTotal)}`] : '–'),
        el('td', {}, p.bytesPerSecond ? `${bytes(p.bytesPerSecond)}/s` : '–'),
        el('td', {}, p.etaMillis > 0 ? duration(p.etaMillis) : '–'),
        el('td', {}, p.detail || ''),
      );
    }),
  );
}

async function refreshRestore() {
  const [backups, schedule, restore, points] = await Promise.allSettled([
    api('GET', '/actuator/backups'),
    api('GET', '/actuator/backups/schedule'),
    api('GET', '/actuator/restore'),
    api('GET', '/actuator/restore-points'),
  ]);
  if (backups.status === 'fulfilled') state.backups = backups.value;
  if (schedule.status === 'fulfilled') state.schedule = schedule.value;
  // 503 without a backup store or while it fails: the timeline falls back to the last marker
  state.restorePoints = points.status === 'fulfilled' ? points.value : null;
  if (restore.status === 'fulfilled') renderRestore(restore.value);
  renderRestorePoints();
  // a cluster in restore mode has no backups to list until it runs: only the restore must answer
  if (restore.status === 'rejected') throw restore.reason;
}

async function startRestore(event) {
  event.preventDefault();
  const target = $('restore-target').value;
  const value = $('restore-value').value.trim();
  let body;
  let what;
  if (target === 'latest') {
    body = '{"latest": true}';
    what = 'the newest completed backup';
  } else if (target === 'time') {
    if (!ISO_INSTANT.test(value) || Number.isNaN(Date.parse(value))) {
      showError(`Expected an ISO-8601 instant such as 2026-12-03T08:00:00Z, but was '${value}'`, true);
      return;
    }
    body = JSON.stringify({ time: value });
    what = `the newest restore point at or before ${value}`;
  } else {
    if (!POSITIVE_ID.test(value)) {
      showError(`Expected the ${target} to be an integer >= 1, but was '${value}'`, true);
      return;
    }
    body = `{"${target}": ${value}}`;
    what = target === 'backupId' ? `backup ${value}` : `restore point ${value}`;
  }
  await runAction(
    'Restore this cluster?',
    `Every broker fills its empty data directory from ${what}, then starts its partitions and checks each one's state digest.`,
    () => api('POST', '/actuator/restore', body),
    (answer) => `Restore started: ${answer.selection}.`,
  );
}

// ---------------------------------------------------------------------------------------------
// pages and the refresh loop

function showPage() {
  const page = location.hash.slice(1);
  state.page = PAGES.includes(page) ? page : 'overview';
  for (const name of PAGES) $('page-' + name).hidden = name !== state.page;
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('active', link.dataset.page === state.page);
  }
  refresh();
}

let refreshing = null;
let again = false;

/**
 * Reads what the page shows from the admin endpoints; one refresh at a time, and one asked for
 * while another runs follows it (a page change or an action must not show the old data).
 */
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    const page = state.page;
    state.adminReadAt = Date.now();
    try {
      if (state.refused) return;
      state.running = false;
      const topology = api('GET', '/actuator/topology');
      if (page === 'overview') {
        renderTopology(await topology);
      } else {
        // the other pages name the cluster too, but do not fail without the topology
        topology.then(renderClusterName, () => {});
        await (page === 'backups' ? refreshBackups() : refreshRestore());
      }
      $('refreshed').textContent = `updated ${clock(Date.now())}`;
      if (state.page === page) document.body.dataset.loaded = page;
      clearRefreshError();
    } catch (error) {
      refreshFailed(error);
    } finally {
      refreshing = null;
      if (again) {
        again = false;
        refresh();
      }
    }
  })();
  return refreshing;
}

/** Every 2 s: the charts; every 5 s the page's data. Nothing while the tab is hidden. */
async function tick() {
  if (document.hidden) return;
  await scrape().catch(() => {}); // the charts only lose a point
  drawMetrics();
  const every = state.running ? METRICS_POLL_MS : ADMIN_POLL_MS;
  if (Date.now() - state.adminReadAt >= every - METRICS_POLL_MS / 2) refresh();
}

function start() {
  $('error-close').addEventListener('click', () => {
    $('error').hidden = true;
    $('error').dataset.sticky = 'false';
  });
  $('notice-close').addEventListener('click', () => ($('notice').hidden = true));
  $('sign-in').addEventListener('click', () => askForCredentials(''));
  $('credentials').addEventListener('close', () => {
    if ($('credentials').returnValue !== 'ok') return;
    state.authorization = $('credentials-value').value.trim();
    sessionStorage.setItem(CREDENTIALS_KEY, state.authorization);
    $('error').hidden = true;
    $('error').dataset.sticky = 'false';
    state.askedForCredentials = false;
    state.refused = false;
    refresh();
  });
  $('take-form').addEventListener('submit', takeBackup);
  $('restore-form').addEventListener('submit', startRestore);
  window.addEventListener('hashchange', showPage);
  document.addEventListener('visibilitychange', () => document.hidden || tick());
  showPage();
  tick();
  setInterval(tick, METRICS_POLL_MS);
}

start();
