/**
 * Plain text: every object as a fully expanded tree, one line per node, for CI logs, pipes and `-o plain`.
 * Append-only by construction (a string per call; never a cursor movement). Colour is SGR only and only when
 * the caller says so (a TTY, no --no-color, no NO_COLOR).
 *
 *   Instance default/mysql-instance · mysql-5.7-0.3.0 · active plan deploy
 *   ├─ ● deploy            serial  IN_PROGRESS  3:41  updated 11:02:51
 *   │  └─ ● deploy         serial  IN_PROGRESS  3:41
 *   │     ├─ ✔ deploy              COMPLETE     1:12
 *   │     └─ ◌ cleanup             PENDING
 *   └─ ─ backup            serial  NOT ACTIVE
 *   ● <summary>
 *
 * A Kanister phase's output follows its row, a succeeded action's rendered artifacts follow its phases:
 *
 *   ├─ ✔ backup  statefulset mysql-test/mysql-release   complete  48s
 *   │  ├─ ✔ dumpToObjectStore                          complete  41s
 *   │  │  output: s3path=/mysql-backups/…/dump.sql.gz
 *   │  └─ ⤷ ✔ deferPhase recordBackupCompletion        complete   7s
 *   │     output: completedAt=2025-06-02T09:57:19Z
 *   │  artifact mysqlCloudDump: keyValue.completedAt=2025-06-02T09:57:19Z · keyValue.s3path=/mysql-backups/…
 *
 * A picture with the pods planwatch read (`--once` from a cluster) says under a failed node, and a running one known
 * stuck, why and what to run next (docs/stuck.md), once each:
 *
 *   │     └─ ● deploy              IN_PROGRESS  1:12
 *   │        why: pod web-0: CrashLoopBackOff: container app keeps crashing, 6 restarts, last exit code 1 (Error)
 *   │        next: kubectl logs -n shop web-0 -c app --previous
 */
import {objectKey, qualifiedName, type NodeState, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import {formatDuration, formatDurationWords} from '../model/format-duration.js';
import {asciiLineBreakMarker, lineBreakMarker} from '../model/sanitize.js';
import {displayWidth} from '../model/display-width.js';
import {formatPercent, objectFacts} from '../model/object-facts.js';
import {isActiveState, kanisterState, kudoState, outcomeState, statusLook, statusText} from '../model/status.js';
import type {NodeTiming, StoreSnapshot, Transition} from '../state/store.js';
import {objectTimingId} from '../state/store.js';
import {asOfText, clockTime, noteText, timeOfDay, zoneName} from '../model/clock-time.js';
import type {AsOf} from '../model/as-of.js';
import {isoMs} from '../model/iso-time.js';
import {createPaint, type Paint} from './paint.js';
import {valuesLine, valuesLines} from '../model/kanister-values.js';
import type {Diagnosis} from '../model/diagnosis.js';
import {diagnoseIn} from '../state/workloads.js';

export type PlainOptions = {
	/** Clock time of the picture (elapsed times of running nodes, "today" for times of day). */
	readonly now: number;
	readonly ascii: boolean;
	readonly color: boolean;
	/** IANA zone for times of day; default: the machine's. */
	readonly timeZone?: string;
	/** A static snapshot (`-f`): the moment it is of (`now` is it); each header says `as of …`. */
	readonly asOf?: AsOf;
};

type Glyphs = {
	readonly branch: string;
	readonly last: string;
	readonly pipe: string;
	readonly blank: string;
	readonly separator: string;
	readonly defer: string;
	readonly path: string;
	readonly arrow: string;
	readonly lineBreak: string;
	/** Before a duration that is only a lower bound (its start was not seen). */
	readonly atLeast: string;
};

const unicode: Glyphs = {
	branch: '├─ ',
	last: '└─ ',
	pipe: '│  ',
	blank: '   ',
	separator: ' · ',
	defer: '⤷ ',
	path: ' › ',
	arrow: ' → ',
	lineBreak: lineBreakMarker,
	atLeast: '≥',
};
const ascii: Glyphs = {
	branch: '|- ',
	last: '`- ',
	pipe: '|  ',
	blank: '   ',
	separator: ' | ',
	defer: '>> ',
	path: ' > ',
	arrow: ' -> ',
	lineBreak: asciiLineBreakMarker,
	atLeast: '>=',
};

/** A tree row before alignment. */
type Row = {
	readonly lead: string;
	readonly icon: string;
	readonly state: NodeState;
	readonly name: string;
	readonly strategy: string;
	readonly status: string;
	readonly time: string;
	readonly extra: string;
	/** The row shows a clock time (the header then names the zone). */
	readonly timed: boolean;
	readonly dim: boolean;
	/** A line of facts under a node (a phase's output, an action's artifacts): `lead` then this, no columns. */
	readonly fact?: string;
	/** The fact is why the node failed (painted as an error). */
	readonly why?: boolean;
};

type Explain = (node: PlanNode) => Diagnosis | undefined;

/** The whole snapshot: objects separated by a blank line; '' when there are none. With `workloads`, why and next. */
export function renderPlain(
	snapshot: Pick<StoreSnapshot, 'objects' | 'timings'> & Partial<Pick<StoreSnapshot, 'workloads'>>,
	options: PlainOptions,
): string {
	const {workloads, timings} = snapshot;
	return snapshot.objects
		.map(object => {
			const explain = workloads ? (node: PlanNode) => diagnoseIn({workloads, timings}, object, node) : undefined;
			return renderObjectPlain(object, timings.get(objectKey(object)), options, explain).join('\n') + '\n';
		})
		.join('\n');
}

/** One object: header line, one line per node (all expanded), summary line. */
export function renderObjectPlain(
	object: PlanObject,
	timings: ReadonlyMap<string, NodeTiming> | undefined,
	options: PlainOptions,
	explain?: Explain,
): string[] {
	const g = options.ascii ? ascii : unicode;
	const paint = createPaint(options.color);
	const collected: Row[] = [];
	collectRows(object.tree, '', collected, timings, options, g, explain && {explain, said: new Set()});
	const rows = collected.filter(r => r.fact === undefined);

	const width = {
		name: Math.max(0, ...rows.map(r => displayWidth(r.lead + r.icon + ' ' + r.name))),
		strategy: Math.max(0, ...rows.map(r => displayWidth(r.strategy))),
		status: Math.max(0, ...rows.map(r => displayWidth(r.status))),
		time: Math.max(0, ...rows.map(r => displayWidth(r.time))),
	};

	// A snapshot's moment names the zone too.
	const zone = rows.some(r => r.timed) || options.asOf ? `times ${zoneName(options.timeZone)}` : undefined;
	const asOf = options.asOf ? asOfText(options.asOf, options.timeZone) : undefined;
	const lines = [header(object, g, paint, [asOf, zone])];
	for (const r of collected) {
		if (r.fact !== undefined) {
			lines.push(r.lead + paint(r.why ? 'error' : 'muted', r.fact));
			continue;
		}

		const role = statusLook(r.state).role;
		const name = pad(' ' + r.name, width.name - displayWidth(r.lead + r.icon));
		const cols = [
			r.lead + paint(role, r.icon) + (r.dim ? paint('muted', name) : name),
			...(width.strategy > 0 ? [pad(r.strategy, width.strategy)] : []),
			paint(role, r.status) + ' '.repeat(width.status - displayWidth(r.status)),
			...(width.time > 0 ? [padStart(r.time, width.time)] : []),
			r.extra,
		];
		lines.push(cols.join('  ').trimEnd());
	}

	const outcome = outcomeState(object.outcome);
	const look = statusLook(outcome);
	lines.push(paint(look.role, (options.ascii ? look.ascii : look.icon) + ' ' + oneLine(object.summary, g)));
	return lines;
}

function header(object: PlanObject, g: Glyphs, paint: Paint, more: ReadonlyArray<string | undefined>): string {
	const given = more.filter(m => m !== undefined);
	const parts = [`${object.kind} ${paint('strong', qualifiedName(object))}`, ...objectFacts(object), ...given];
	return parts.join(g.separator);
}

function collectRows(
	nodes: readonly PlanNode[],
	indent: string,
	rows: Row[],
	timings: ReadonlyMap<string, NodeTiming> | undefined,
	options: PlainOptions,
	g: Glyphs,
	why?: {readonly explain: Explain; readonly said: Set<string>},
): void {
	nodes.forEach((node, i) => {
		const isLast = i === nodes.length - 1;
		const look = statusLook(node.state);
		const defer = node.kind === 'deferPhase';
		const extra = extras(node, options, g);
		rows.push({
			lead: indent + (isLast ? g.last : g.branch) + (defer ? g.defer : ''),
			icon: options.ascii ? look.ascii : look.icon,
			state: node.state,
			name: nodeName(node),
			strategy: node.strategy ?? '',
			status: oneLine(statusText(node, '-'), g),
			time: elapsed(node, timings?.get(node.id), options.now, g),
			extra: extra.text,
			timed: extra.timed,
			dim: node.state === 'inactive' || node.state === 'pending',
		});
		const inner = indent + (isLast ? g.blank : g.pipe);
		const fact = (text: string, lead: string, why = false): void => {
			const blank = {icon: '', name: '', strategy: '', status: '', time: '', extra: '', timed: false};
			rows.push({lead, ...blank, state: node.state, dim: true, fact: oneLine(text, g), ...(why ? {why} : {})});
		};

		const under = inner + (node.children.length > 0 ? g.pipe : '');
		if (node.output) {
			fact(valuesLine('output', node.output, g.separator), under);
		}

		// Only where a command is worth running: a failed node, or one known stuck (it has a next command). A command
		// the object's rows said already (a failed phase and its failed deferPhase: one kanctl) is not said again.
		const d = why?.explain(node);
		if (why && d && (node.state === 'failed' || d.next !== undefined)) {
			if (d.cause) {
				fact(`why: ${d.cause}`, under, true);
			}

			if (d.next && !why.said.has(d.next)) {
				why.said.add(d.next);
				fact(`next: ${d.next}`, under);
			}
		}

		collectRows(node.children, inner, rows, timings, options, g, why);
		// Templates until the controller rendered them: only the rendered values are worth copying.
		if (node.artifacts?.rendered) {
			for (const line of valuesLines({artifacts: node.artifacts}, g.separator)) {
				fact(line, inner);
			}
		}
	});
}

/** A deferPhase says what it is; a Kanister action names the object it acts on. */
function nodeName(node: PlanNode): string {
	const name = node.kind === 'deferPhase' && node.name !== 'deferPhase' ? `deferPhase ${node.name}` : node.name;
	return node.detail ? `${name}  ${node.detail}` : name;
}

/**
 * Time in the node's current state as the store observed it (or as the object said). A node still running
 * shows its clock only once it has run for a second: a first sight is not a start time.
 */
function elapsed(node: PlanNode, timing: NodeTiming | undefined, now: number, g: Glyphs): string {
	const started = timing?.startedAt;
	if (started === undefined) {
		return '';
	}

	const mark = timing?.atLeast ? g.atLeast : '';
	if (timing?.endedAt !== undefined) {
		return mark + formatDuration(timing.endedAt - started);
	}

	return isActiveState(node.state) && now - started >= 1000 ? mark + formatDuration(now - started) : '';
}

function extras(node: PlanNode, options: PlainOptions, g: Glyphs): {text: string; timed: boolean} {
	const parts: string[] = [];
	const note = noteText(node, options.now, options.timeZone);
	let timed = note !== node.note;
	if (note) {
		parts.push(oneLine(note, g));
	}

	// Progress only while it moves: "100%" on a finished phase repeats its status.
	if (node.percent !== undefined && isActiveState(node.state)) {
		parts.push(`${formatPercent(node.percent)}%`);
	}

	if (node.message) {
		parts.push(oneLine(node.message, g));
	}

	// Only for the plan/action being worked on: the model already says "last run …" for the others, and a
	// Kanister phase's time is merely its last progress poll.
	const updated = (node.kind === 'plan' || node.kind === 'action') && (node.active || isActiveState(node.state))
		? isoMs(node.updatedAt)
		: undefined;
	if (updated !== undefined) {
		parts.push(`updated ${clockTime(updated, options.now, options.timeZone)}`);
		timed = true;
	}

	return {text: parts.join(g.separator), timed};
}

export type TransitionOptions = {
	readonly ascii: boolean;
	readonly color: boolean;
	readonly timeZone?: string;
};

/**
 * One line of the live plain log:
 * `11:03:22 default/mysql-instance deploy › deploy › deploy  IN_PROGRESS → COMPLETE (1m12s)`.
 * An object-level change (empty path) reads `11:03:22 default/mysql-instance  IN_PROGRESS → COMPLETE`.
 */
export function formatTransition(t: Transition, options: TransitionOptions): string {
	const g = options.ascii ? ascii : unicode;
	const paint = createPaint(options.color);
	const state = t.state ?? (t.kind === 'Instance' ? kudoState(t.to) : kanisterState(t.to));
	const where = [qualifiedName(t), ...(t.path.length > 0 ? [t.path.map(p => oneLine(p, g)).join(g.path)] : [])].join(' ');
	const change = `${oneLine(t.from || '-', g)}${g.arrow}${paint(statusLook(state).role, oneLine(t.to || '-', g))}`;
	const took = t.durationMs === undefined ? '' : ` (${t.atLeast ? g.atLeast : ''}${formatDurationWords(t.durationMs)})`;
	return `${timeOfDay(t.at, options.timeZone)} ${where}  ${change}${took}`;
}

/**
 * Where an object stands, as one log line (the start of a live plain log):
 * `11:02:10 default/mysql-instance  IN_PROGRESS  deploy in progress: phase deploy, step init (1/3 steps)`.
 */
export function formatObjectLine(object: PlanObject, at: number, options: TransitionOptions): string {
	const g = options.ascii ? ascii : unicode;
	const paint = createPaint(options.color);
	const status = paint(statusLook(object.state).role, oneLine(object.status || object.outcome, g));
	return `${timeOfDay(at, options.timeZone)} ${qualifiedName(object)}  ${status}  ${oneLine(object.summary, g)}`;
}

/**
 * The closing line of a live plain log: `11:06:41 default/mysql-instance deploy  COMPLETE in 4m31s`, with the
 * object's own clock (objectTimingId) when the store has one.
 */
export function formatFinished(
	object: PlanObject,
	timings: ReadonlyMap<string, NodeTiming> | undefined,
	at: number,
	options: TransitionOptions,
): string {
	const g = options.ascii ? ascii : unicode;
	const paint = createPaint(options.color);
	const timing = timings?.get(objectTimingId);
	const took = timing?.startedAt === undefined ? undefined : (timing.endedAt ?? at) - timing.startedAt;
	const where = [qualifiedName(object), ...(object.active ? [object.active] : [])].join(' ');
	const status = paint(statusLook(outcomeState(object.outcome)).role, oneLine(object.status || object.outcome, g));
	const mark = timing?.atLeast ? g.atLeast : '';
	return `${timeOfDay(at, options.timeZone)} ${where}  ${status}${took === undefined ? '' : ` in ${mark}${formatDurationWords(took)}`}`;
}

/**
 * Under a failed node in the live plain log, once each: why, and the command to run next —
 * `11:04:02   why: pod web-1: CrashLoopBackOff: …` / `11:04:02   next: kubectl logs -n ns web-1 -c app --previous`.
 */
export function formatExplanation(part: 'why' | 'next', text: string, at: number, options: TransitionOptions): string {
	const g = options.ascii ? ascii : unicode;
	const paint = createPaint(options.color);
	return `${timeOfDay(at, options.timeZone)}   ${part}: ${part === 'why' ? paint('error', oneLine(text, g)) : oneLine(text, g)}`;
}

/**
 * One row per node. Text here is sanitized already (line breaks are the marker, tabs spaces): only the marker
 * changes, to the glyph set's (ASCII output must not carry `⏎`).
 */
function oneLine(text: string, g: Glyphs): string {
	return text.replaceAll(lineBreakMarker, g.lineBreak);
}

function pad(text: string, width: number): string {
	return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function padStart(text: string, width: number): string {
	return ' '.repeat(Math.max(0, width - displayWidth(text))) + text;
}
